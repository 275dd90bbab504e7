import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const adminRoot = fileURLToPath(new URL('.', import.meta.url));

/**
 * In production `/config.json` is written next to the static build by the deployment
 * (CloudFront/S3) or served by the local twin. `vite dev` has neither, so answer it here
 * from environment variables. This plugin only runs in the dev server, never in the build.
 */
function devRuntimeConfig(): Plugin {
  return {
    name: 'dev-runtime-config',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use('/config.json', (_req, res) => {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            apiUrl: process.env.ADMIN_API_URL ?? 'http://127.0.0.1:3001',
            region: process.env.ADMIN_REGION ?? 'us-east-1',
            userPoolId: process.env.ADMIN_USER_POOL_ID ?? '',
            userPoolClientId: process.env.ADMIN_USER_POOL_CLIENT_ID ?? '',
            userPoolEndpoint: process.env.ADMIN_USER_POOL_ENDPOINT ?? 'http://127.0.0.1:9229',
            stage: 'dev',
          }),
        );
      });
    },
  };
}

export default defineConfig({
  root: adminRoot,
  base: '/',
  plugins: [react(), devRuntimeConfig()],
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
