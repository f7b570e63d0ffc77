import { defineConfig } from 'vitest/config';

/**
 * Every test runs against embedded PGlite. When TEST_DATABASE_URL is set (CI sets it to the
 * local PostgreSQL), the integration tests (`*.int.test.ts`) run a second time against it.
 */
const postgresUrl = process.env.TEST_DATABASE_URL;

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true as const,
        test: {
          name: 'pglite',
          include: ['test/**/*.test.ts'],
          env: { TEST_DB: 'pglite' },
          // One migrated PGlite database for the run; every test app loads a copy of it.
          globalSetup: ['test/global-setup.ts'],
        },
      },
      ...(postgresUrl
        ? [
            {
              extends: true as const,
              test: {
                name: 'postgres',
                include: ['test/**/*.int.test.ts'],
                env: { TEST_DB: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
