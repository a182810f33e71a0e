import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // jsdom gives the loader's iframe a real window, so messages can be checked against their source.
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    restoreMocks: true,
    setupFiles: ['./src/test/setup.ts'],
    // The limits are for a test that waits on something that never comes, not measures of speed: the slowest test
    // takes about 1.4 s with both cores busy with other work (a load average of 18), against Vitest's default 5 s.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
