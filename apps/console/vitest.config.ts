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
    maxWorkers: 2,
    // A worker keeps its imported modules from one file to the next (importing Mantine and the screens again for
    // each file was most of the suite's time); setup.ts resets what a test leaves behind in the DOM and stores.
    isolate: false,
    // The limit is for a test that waits on something that never comes, not a measure of speed: the slowest test
    // (a screen filled in field by field) takes about 15 s with both cores busy with other work (a load average of
    // 21-25), and a test makes a few waits of at most asyncUtilTimeout (src/test/setup.ts) each.
    testTimeout: 120_000,
    // Likewise for hooks, such as parsing the zxcvbn dictionaries before the password tests.
    hookTimeout: 120_000,
  },
});
