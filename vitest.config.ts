import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest files, longest first: server processes, OCR workers, Chromium, timers. They start
 * first: Vitest orders by the durations it remembers, and a fresh checkout (CI) remembers none,
 * so they ran last and left one worker alone at the end (npm test 97 s → 89 s on 2 cores).
 */
const SLOW_FILES = [
  'server.test.ts',
  'ocr-idcard.int.test.ts',
  'quota-crash.int.test.ts',
  'portal.browser.test.ts',
  'url-lists.int.test.ts',
  'data-dir-lock.test.ts',
  'watch-e2e.test.ts',
  'watch-cron.test.ts',
];

class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => SLOW_FILES.findIndex((name) => file.moduleId.endsWith(`/test/${name}`));
    const sorted = await super.sort(files);
    const slow = sorted.filter((file) => rank(file) >= 0).sort((a, b) => rank(a) - rank(b));
    return [...slow, ...sorted.filter((file) => rank(file) < 0)];
  }
}

/**
 * Every test runs against embedded PGlite. When TEST_DATABASE_URL is set (CI sets it to the
 * local PostgreSQL), the integration tests (`*.int.test.ts`) run a second time against it.
 */
const postgresUrl = process.env.TEST_DATABASE_URL;

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Half of a file's time went to importing the service (express, bots, tesseract, pdf.js):
    // files share one module graph per worker. No test mocks modules or mutates process.env, and
    // every test builds its own app, runtime or database.
    isolate: false,
    // Two workers even on 2 cores (Vitest's default there is one): a quarter of a one-worker run
    // is spent waiting (server processes starting, lock waits, timers), which the other worker
    // fills. Three workers starved start-up tests into timeouts on a loaded machine (README "Test").
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: SlowFilesFirst },
    projects: [
      {
        // Type tests (`*.test-d.ts`, expectTypeOf): checked by tsc, a mismatch fails as a test.
        extends: true as const,
        test: { name: 'types', include: [], typecheck: { enabled: true, only: true, include: ['test/**/*.test-d.ts'] } },
      },
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
                // Files whose subject does not depend on the database run once, on PGlite: OCR
                // recognition, the tracker client against the real server's shapes, the LLM
                // operations against the fake model (their refunds are the executor's, which
                // quota, security and the other files check here), and the OpenAPI document.
                exclude: [
                  'test/ocr-idcard.int.test.ts',
                  'test/tracker-contract.int.test.ts',
                  'test/generate.int.test.ts',
                  'test/translate.int.test.ts',
                  'test/tone.int.test.ts',
                  'test/openapi.int.test.ts',
                ],
                env: { TEST_DB: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
