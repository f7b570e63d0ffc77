import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { fontconfigFile } from './test/helpers/korean-fonts.js';

/**
 * The longest files, longest first: server processes, OCR workers, Chromium, timers, real lists. They start
 * first: Vitest orders by the durations it remembers, and a fresh checkout (CI) remembers none,
 * so they ran last and left one worker alone at the end (npm test 97 s → 89 s on 2 cores).
 */
const SLOW_FILES = [
  'ocr-idcard.e2e.test.ts',
  'server.e2e.test.ts',
  'portal-first-hour.e2e.test.ts',
  'portal.e2e.test.ts',
  'ocr-mask-image.e2e.test.ts',
  'url-accuracy.int.test.ts',
  'url-lists.e2e.test.ts',
  'data-dir-lock.e2e.test.ts',
  'quota-crash.e2e.test.ts',
  'bots-slack.int.test.ts',
  'link-guard-slack.int.test.ts',
  'watch.e2e.test.ts',
  'watch-cron.test.ts',
  // The longest unit files, so that a `test:unit` run ends with both workers busy: the smishing
  // model's one test trains on the real KISA reports (6 s alone), the others prepare images or read the real lists.
  'url-smishing-model.test.ts',
  'ocr-input.test.ts',
  'url-model.test.ts',
  'ocr-operation.test.ts',
  'ocr-seal-date.test.ts',
];

class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => SLOW_FILES.findIndex((name) => file.moduleId.endsWith(`/test/${name}`));
    const sorted = await super.sort(files);
    // Each project's files stay together (Vitest's own order groups them): a worker is kept only
    // for the next file of its own project, and a new one imports the service again.
    const projects = [...new Set(sorted.map((file) => file.project.name))];
    return projects.flatMap((name) => {
      const own = sorted.filter((file) => file.project.name === name);
      const slow = own.filter((file) => rank(file) >= 0).sort((a, b) => rank(a) - rank(b));
      return [...slow, ...own.filter((file) => rank(file) < 0)];
    });
  }
}

/**
 * Tests by tier, one project each, named by the file (`npm run test:unit`, `test:int`, `test:e2e`):
 * `*.test.ts` unit (no runtime, database, process, Tesseract or Chromium), `*.int.test.ts` the
 * runtime on embedded PGlite, `*.e2e.test.ts` processes, the browser and OCR end to end. When
 * TEST_DATABASE_URL is set (`.ci/run` sets it to the local PostgreSQL), the integration files and
 * the end-to-end files whose subject is the database run a second time against it.
 */
const postgresUrl = process.env.TEST_DATABASE_URL;
const INT = 'test/**/*.int.test.ts';
const E2E = 'test/**/*.e2e.test.ts';

/**
 * Integration files whose subject does not depend on the database run once, on PGlite: the
 * tracker client against the real server's shapes, the LLM operations against the fake model
 * (their refunds are the executor's, which quota, security and the other files check there), the
 * OpenAPI document (its linters and generated client too), the chatbot's storage and the messages (both on their own PGlite), stalled connections, the invitation mail, URL
 * accuracy on the real lists, and the doors — the Slack and Discord bots, the link guard's
 * channel side, the HTTP contract and the operation door's answers, logs and abuse limits — whose
 * storage is each store's own file (link-guard-store, watch, shorten, platform …; the charges and
 * refusals behind the door's 403 and 429 are quota and security), which runs on both.
 */
const PGLITE_ONLY_INT = [
  ...['tracker-contract', 'generate', 'translate', 'tone', 'openapi', 'chatbot-storage', 'messages', 'url-accuracy'],
  ...['openapi-lint', 'openapi-client'],
  ...['bots-slack', 'bots-discord', 'bots-knowledge', 'link-guard-slack', 'link-guard-discord', 'parcels-slack'],
  ...[
    'short-links-slack',
    'watch-slack',
    'http-contract',
    'operation-door',
    'logging',
    'openapi-conformance',
    'abuse-http',
    'chatbot-llm',
    'url-scan',
    'oversized-bodies',
    // Migrates a PGlite database of its own from before teams: nothing of TEST_DATABASE_URL's.
    'team-migration',
    // Connections that stall, and the invitation's mail on an SMTP server: the invitation's rows are team.int's, on both.
    'stalled-requests',
    'invite-mail',
  ],
].map((name) => `test/${name}.int.test.ts`);

/** End-to-end files whose subject is the database: a server killed mid-burst, an outage, the feeds' refresh. */
const POSTGRES_E2E = ['quota-crash', 'db-outage', 'url-lists'].map((name) => `test/${name}.e2e.test.ts`);

const project = (name: string, include: string[], options: { exclude?: string[]; db?: 'pglite' | 'postgres' } = {}) => ({
  extends: true as const,
  test: {
    name,
    include,
    exclude: options.exclude ?? [],
    ...(options.db ? { env: { TEST_DB: options.db } } : {}),
    globalSetup: [
      // One migrated PGlite database for the run; every test app loads a copy of it.
      ...(options.db === 'pglite' ? ['test/global-setup.ts'] : []),
      // The service transpiled once, for the server processes the end-to-end files start.
      ...(name.startsWith('e2e') ? ['test/build-server-setup.ts'] : []),
    ],
  },
});

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The synthetic documents are drawn with Korean fonts from npm packages, found through this
    // fontconfig file, never with the machine's fonts (test/helpers/korean-fonts.ts).
    env: { FONTCONFIG_FILE: fontconfigFile() },
    // Half of a file's time went to importing the service (express, bots, tesseract, pdf.js):
    // files share one module graph per worker. No test mocks modules or mutates process.env, and
    // every test builds its own app, runtime or database.
    isolate: false,
    // Two workers even on 2 cores (Vitest's default there is one): a quarter of a one-worker run
    // is spent waiting (server processes starting, lock waits, timers), which the other worker
    // fills. Three workers starved start-up tests into timeouts on a loaded machine
    // (docs/decisions/2026-11-26-two-test-workers.md).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    experimental: { fsModuleCache: true },
    sequence: { sequencer: SlowFilesFirst },
    projects: [
      project('unit', ['test/**/*.test.ts'], { exclude: [INT, E2E] }),
      project('int', [INT], { db: 'pglite' }),
      project('e2e', [E2E], { db: 'pglite' }),
      {
        // Type tests (`*.test-d.ts`, expectTypeOf): `tsc --noEmit -p tsconfig.json` checks the whole project, so a
        // mismatch fails as a test and a type error anywhere fails the run (`npm run build` does not check types).
        extends: true as const,
        test: {
          name: 'types',
          include: [],
          // The check starts with the run, beside the first files, instead of alone after the last.
          globalSetup: ['test/typecheck-setup.ts'],
          typecheck: {
            enabled: true,
            only: true,
            include: ['test/**/*.test-d.ts'],
            checker: fileURLToPath(new URL('test/typecheck-checker.mjs', import.meta.url)),
          },
        },
      },
      ...(postgresUrl
        ? [
            project('int-postgres', [INT], { exclude: PGLITE_ONLY_INT, db: 'postgres' }),
            project('e2e-postgres', POSTGRES_E2E, { db: 'postgres' }),
          ]
        : []),
    ],
  },
});
