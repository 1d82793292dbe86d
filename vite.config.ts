import { defineConfig } from 'vite';

export default defineConfig({
  // The datasets are built into public/data and served (and later precached) as static files.
  publicDir: 'public',
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
