import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const API_SERVER = 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: Object.fromEntries(
      ['/v1', '/api', '/docs', '/healthz', '/readyz'].map((path) => [path, API_SERVER]),
    ),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The one chunk above Vite's 500 kB default is zxcvbn's dictionaries (1.7 MB, 850 kB gzipped), one module
    // that cannot split and loads lazily on the password screens only; the rest stays under 300 kB.
    chunkSizeWarningLimit: 1800,
    rolldownOptions: {
      treeshake: {
        // @omnibot/contracts only declares schemas, constants and pure functions. Saying so lets a page that
        // needs the menu rules skip the zod schemas it does not use.
        moduleSideEffects: [{ test: /[\\/]packages[\\/]contracts[\\/]src[\\/]/, sideEffects: false }],
      },
    },
  },
});
