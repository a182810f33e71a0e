import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The chat app that runs inside the widget's iframe. Relative asset paths let the server mount it under any path.
export default defineConfig({
  plugins: [react()],
  base: './',
  build: { outDir: 'dist/app', emptyOutDir: true },
});
