import { defineConfig, devices } from '@playwright/test';

// Debian's Chromium only: Playwright never downloads a browser here (scripts/ensure-chromium.mjs).
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: '.',
  // Only Playwright specs; support/*.test.ts are vitest unit tests.
  testMatch: '**/*.spec.ts',
  outputDir: '../test-results',
  // Each worker runs its own server and browser; the machines have two cores.
  workers: 2,
  fullyParallel: false,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: 'list',
  // Limits for a journey or a step that waits on something that never comes, not measures of speed: with both cores
  // busy with other work (CI's run here failed at a load average of 10-16), a journey's pages, server calls and
  // background jobs all take several times longer, and a journey of a dozen steps ran past 30 s.
  timeout: 120_000,
  expect: { timeout: 30_000 },
  use: {
    ...devices['Desktop Chrome'],
    browserName: 'chromium',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
