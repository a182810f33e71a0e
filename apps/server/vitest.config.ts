import { defineConfig } from 'vitest/config';

// The integration suites run on in-memory PGlite, and again on PostgreSQL when TEST_DATABASE_URL is set.
const databases = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    globalSetup: ['src/test/database-template.ts'],
    projects: databases.map((name) => ({
      extends: true,
      test: { name, include: ['src/**/*.test.ts'], env: { OMNIBOT_TEST_DB: name } },
    })),
  },
});
