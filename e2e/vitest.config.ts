import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Unit tests of the end-to-end helpers and the repo scripts (run by `npm run test:unit`);
// Playwright owns the *.spec.ts files.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['e2e/support/**/*.test.ts', 'scripts/**/*.test.mjs'],
    exclude: ['**/*.spec.ts', '**/node_modules/**'],
  },
});
