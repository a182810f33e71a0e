import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // jsdom gives the loader's iframe a real window, so messages can be checked against their source.
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    restoreMocks: true,
  },
});
