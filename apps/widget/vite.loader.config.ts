import { defineConfig } from 'vite';

// The loader a host page embeds with <script src=".../widget.js" data-bot="...">: one framework-free IIFE file.
export default defineConfig({
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    minify: true,
    lib: { entry: 'src/loader.ts', formats: ['iife'], name: 'OmnibotLoader', fileName: () => 'widget.js' },
  },
});
