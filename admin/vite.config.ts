import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { devRuntimeConfig } from '../events/runtime-config';

const adminRoot = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: adminRoot,
  base: '/',
  plugins: [
    react(),
    devRuntimeConfig(() => ({
      apiUrl: process.env.ADMIN_API_URL ?? 'http://127.0.0.1:3001',
      region: process.env.ADMIN_REGION ?? 'us-east-1',
      userPoolId: process.env.ADMIN_USER_POOL_ID ?? '',
      userPoolClientId: process.env.ADMIN_USER_POOL_CLIENT_ID ?? '',
      userPoolEndpoint: process.env.ADMIN_USER_POOL_ENDPOINT ?? 'http://127.0.0.1:9229',
      stage: 'dev',
    })),
  ],
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Vendor code changes less often than the console's own code: separate chunks let
        // browsers keep them cached across deployments (and keep each under 500 kB).
        codeSplitting: {
          groups: [
            { name: 'amplify', test: /node_modules[\\/](@aws-amplify|aws-amplify|@aws-crypto|@aws-sdk|@smithy)[\\/]/ },
            { name: 'mui', test: /node_modules[\\/](@mui|@emotion)[\\/]/ },
            { name: 'react-admin', test: /node_modules[\\/](react-admin|ra-[a-z-]+|@tanstack|react-hook-form|lodash)[\\/]/ },
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
          ],
        },
      },
    },
  },
});
