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
    // Two files at a time: Vitest's default (one worker fewer than the cores) runs them one by one on two cores.
    // A test has 15 s instead of 5: with both cores busy, a screen's first render and lazy imports take longer.
    maxWorkers: 2,
    // A worker keeps its imported modules from one file to the next (importing Mantine and the screens again for
    // each file was most of the suite's time); setup.ts resets what a test leaves behind in the DOM and stores.
    isolate: false,
    testTimeout: 15_000,
  },
});
