import { defineConfig } from 'vitest/config';

// The integration suites run on in-memory PGlite, and again on PostgreSQL when TEST_DATABASE_URL is set.
const databases = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Two test files at a time: most of a file's time is spent waiting on PostgreSQL, PGlite or the network, and
    // Vitest's default (one worker fewer than the cores) runs them one by one on a two-core machine.
    maxWorkers: 2,
    // A worker keeps its imported modules from one file to the next: importing the app for each of the 150 files
    // cost more than half the suite. Every file builds its own app and database, so no state crosses files.
    isolate: false,
    globalSetup: ['src/test/database-template.ts'],
    projects: databases.map((name) => ({
      extends: true,
      test: { name, include: ['src/**/*.test.ts'], env: { OMNIBOT_TEST_DB: name } },
    })),
  },
});
