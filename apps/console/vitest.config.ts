import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'happy-dom',
    // Lets a test run public/theme-init.js as a real <script>, the way the browser does.
    environmentOptions: { happyDOM: { settings: { enableJavaScriptEvaluation: true } } },
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    restoreMocks: true,
  },
});
