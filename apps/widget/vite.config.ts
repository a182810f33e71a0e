import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The chat app that runs inside the widget's iframe; the server serves it at /widget/ and its assets at /widget/assets/.
export default defineConfig({
  plugins: [react()],
  base: '/widget/',
  build: { outDir: 'dist/app', emptyOutDir: true },
});
