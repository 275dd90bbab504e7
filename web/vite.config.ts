import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const webRoot = fileURLToPath(new URL('.', import.meta.url));

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
            apiUrl: process.env.WEB_API_URL ?? 'http://127.0.0.1:3001',
            stage: 'dev',
            contactEmail: process.env.WEB_CONTACT_EMAIL ?? 'hello@humanly.local',
            prelaunch: true,
          }),
        );
      });
    },
  };
}

export default defineConfig({
  root: webRoot,
  base: '/',
  plugins: [react(), devRuntimeConfig()],
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
  },
});
