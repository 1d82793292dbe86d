import { defineConfig } from 'vite';
import { serviceWorker } from './scripts/vite-plugin-service-worker.ts';

export default defineConfig({
  // The datasets are built into public/data and served (and later precached) as static files.
  publicDir: 'public',
  // Bundles worker/sw.ts after the app and injects the precache manifest (docs/decisions/0400).
  plugins: [serviceWorker()],
  build: {
    target: 'es2022',
    sourcemap: true,
  },
  worker: {
    format: 'es',
  },
  preview: {
    port: 4173,
    strictPort: true,
    host: 'localhost',
  },
  server: {
    host: 'localhost',
  },
});
