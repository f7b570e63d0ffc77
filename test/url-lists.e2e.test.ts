import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockDataDir } from '../db/lock.js';
import { urlListChunks, urlListSources } from '../db/schema.js';
import { updateUrlLists } from '../scripts/update-url-lists.js';
import { loadConfig } from '../src/config.js';
import type { FeedSpec } from '../src/operations/url-detect/lists/feeds.js';
import { LexicalModel } from '../src/operations/url-detect/model/lexical-model.js';
import { smishingNeedsSample } from '../src/operations/url-detect/model/smishing-model.js';
import { createRuntime } from '../src/runtime.js';
import { startFakeFeedServer, type FakeFeedServer } from './fakes/feed-server.js';
import { startTestApp, testDatabaseEnv, type TestApp } from './helpers/app.js';
import { migratedDataDir } from './helpers/process.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/url-lists/${name}`, import.meta.url));
// Feed names are unique per run: on PostgreSQL the list tables are shared with other test files.
const run = Math.random().toString(36).slice(2, 8);
const execFileAsync = promisify(execFile);

let feeds: FakeFeedServer;
let feedBase: string;
let app: TestApp;
beforeAll(async () => {
  feeds = await startFakeFeedServer(
    {
      '/urlhaus.csv': fixture('urlhaus.csv'),
      '/phishing.adblock': fixture('phishing.adblock'),
      '/messy.txt.gz': gzipSync(fixture('messy-domains.txt')),
      '/adult.hosts': fixture('adult.hosts'),
      '/gambling/domains': fixture('gambling-domains.txt'),
      '/flaky/domains': fixture('gambling-domains.txt'),
      '/empty.txt': Buffer.from('# nothing here\n'),
      // A clean feed of their own keeps these tests offline (without one the built-in reference is added).
      '/top-sites.txt': Buffer.from('example.com\nexample.org\n'),
      // 16 MB of zeros in about 16 KB of gzip.
      '/bomb.txt.gz': gzipSync(Buffer.alloc(16 * 1024 * 1024), { level: 9 }),
    },
    { flaky: ['/flaky/domains'] },
  );
  feedBase = feeds.url;
  app = await startTestApp({}, { urlLists: { download: { sleep: async () => {} } } });
  // On PostgreSQL an interrupted earlier run may have left fixture feeds: start without them.
  await app.runtime.db.delete(urlListSources).where(like(urlListSources.name, 'fixture-%'));
  await app.runtime.urlDetection.reload({ force: true });
});

afterAll(async () => {
  await app.runtime.db.delete(urlListSources).where(like(urlListSources.name, `fixture-%-${run}`));
  await app.close();
  await feeds.close();
});

const feed = (name: string, category: FeedSpec['category'], format: FeedSpec['format'], path: string): FeedSpec => ({
  name: `fixture-${name}-${run}`,
  category,
  format,
  url: feedBase + path,
});

describe('list update from a local server', () => {
  it('stores every format, resumes a download reset mid-way, and the engine picks the feeds up on reload', async () => {
    const { engine, store, reload } = app.runtime.urlDetection;
    expect(engine.classifyRules('https://sunny-fields-club.com/').isMalicious).toBe(false);

    const results = await store.update(
      [
        feed('haus', 'malware', 'csv', '/urlhaus.csv'),
        feed('phish', 'phishing', 'adblock', '/phishing.adblock'),
        feed('messy', 'spam', 'domains', '/messy.txt.gz'),
        feed('adult', 'adult', 'hosts', '/adult.hosts'),
        feed('gambling', 'gambling', 'domains', '/flaky/domains'),
      ],
      { sleep: async () => {} },
    );
    expect(results.map((r) => [r.ok, r.entries, r.skipped])).toEqual([
      [true, 2, 0],
      [true, 5, 1],
      [true, 7, 1],
      [true, 3, 0],
      [true, 3, 0],
    ]);
    expect(feeds.seen.filter((s) => s.path === '/flaky/domains').map((s) => s.range)).toEqual([undefined, 'bytes=40-']);
    expect(await reload()).toBe(true);
    expect(await reload()).toBe(false);

    expect(await engine.classify('https://m.sunny-fields-club.com/anything')).toMatchObject({
      isMalicious: true,
      category: 'gambling',
      source: 'list',
    });
    expect(await engine.classify('https://velvet-evenings.com/')).toMatchObject({ category: 'adult', source: 'list' });
    expect(await engine.classify('http://203.0.113.77:4455/bins/arm7')).toMatchObject({ category: 'malware', source: 'list' });
    expect(await engine.classify('https://pages-host.example/view/fake-bank-kr/')).toMatchObject({ category: 'phishing', source: 'list' });
    expect(await engine.classify('https://한글스팸.example/')).toMatchObject({ category: 'spam', source: 'list' });
    expect((await engine.classify('https://pages-host.example/view/other')).source).not.toBe('list');
    expect((await engine.classify('https://dl-files.example/update/setup.exe')).reason).toContain(`fixture-haus-${run}`);
  });

  it('keeps the previous entries when a download fails or comes back empty, and records why', async () => {
    const { engine, store, reload } = app.runtime.urlDetection;
    const broken = await store.update([feed('gambling', 'gambling', 'domains', '/gone'), feed('adult', 'adult', 'hosts', '/empty.txt')], {
      sleep: async () => {},
    });
    expect(broken.map((r) => [r.ok, r.error])).toEqual([
      [false, 'HTTP 500'],
      [false, 'no entries in the feed'],
    ]);
    await reload();
    expect((await engine.classify('https://green-river-lounge.net/')).category).toBe('gambling');
    expect((await engine.classify('https://silk-room.org/')).category).toBe('adult');
    const states = await store.states();
    expect(states.find((s) => s.name === `fixture-gambling-${run}`)).toMatchObject({ entries: 3, lastError: 'HTTP 500' });
  });

  it('refuses a gzip bomb once its inflated bytes pass the download cap; the feed keeps its entries and the status says why', async () => {
    const { engine, store, reload } = app.runtime.urlDetection;
    await store.update([feed('bombed', 'gambling', 'domains', '/gambling/domains')], { sleep: async () => {} });
    const [bomb] = await store.update([feed('bombed', 'gambling', 'domains', '/bomb.txt.gz')], {
      sleep: async () => {},
      maxBytes: 1024 * 1024,
    });
    expect(bomb).toMatchObject({ ok: false, error: 'the feed is larger than 1 MB once inflated' });
    await reload();
    expect((await engine.classify('https://green-river-lounge.net/')).category).toBe('gambling');
    const states = await store.states();
    expect(states.find((s) => s.name === `fixture-bombed-${run}`)).toMatchObject({
      entries: 3,
      lastError: 'the feed is larger than 1 MB once inflated',
    });
  });

  it('stores a feed as one generation of chunks, switched in one statement; the model is saved in chunks and loaded back', async () => {
    const { store } = app.runtime.urlDetection;
    const name = `fixture-gen-${run}`;
    const generations = async () =>
      (
        await app.runtime.db
          .selectDistinct({ generation: urlListChunks.generation })
          .from(urlListChunks)
          .where(eq(urlListChunks.name, name))
      ).map((row) => row.generation);
    const spec = { ...feed('gen', 'gambling', 'domains', '/gambling/domains'), name };
    await store.update([spec]);
    const [first] = await generations();
    await store.update([spec]);
    // The previous generation is gone once the new one is switched to; the feed reads whole.
    expect(await generations()).toEqual([first! + 1]);
    const loaded = (await store.loadFeeds()).find((f) => f.name === name);
    expect(loaded).toMatchObject({ category: 'gambling', entries: 3 });
    expect(loaded?.hashes.length).toBe(3);
    expect(loaded?.sample.length).toBe(3);
    // The name families (a stem and its listed domain a line) are stored with the hashes.
    const families = [
      'blueharborgames\tblue-harbor-games.org',
      'greenriverlounge\tgreen-river-lounge.net',
      'sunnyfieldsclub\tsunny-fields-club.com',
    ];
    expect(loaded?.families?.split('\n').sort()).toEqual(families);
    // Without its sample when the model is saved: only the hashes and families are read.
    const bare = (await store.loadFeeds({ sample: false })).find((f) => f.name === name);
    expect(bare?.sample).toEqual([]);
    expect(bare?.families?.split('\n').sort()).toEqual(families);
    // With a saved model and no Korean feed stored, no sample is read at all (the smishing model has nothing to train on).
    const smishingOnly = await store.loadFeeds({ sample: smishingNeedsSample });
    expect(smishingOnly.find((f) => f.name === name)?.sample).toEqual([]);

    const clean = Array.from({ length: 300 }, (_, i) => `garden${i}river.com`);
    const harm = Array.from({ length: 300 }, (_, i) => `zq${i}spinwin.xyz`);
    const model = await LexicalModel.train(
      new Map([
        ['clean', clean],
        ['gambling', harm],
      ]),
      { maxClean: 300 },
    );
    await store.saveModel(`test-${run}`, model!);
    await store.saveModel(`test-${run}`, model!);
    const back = await store.loadModel(`test-${run}`);
    expect(back?.predict('zq77spinwin.xyz').harm).toBe(model!.predict('zq77spinwin.xyz').harm);
    expect(await store.loadModel('another feed state')).toBeUndefined();
    const modelGenerations = await app.runtime.db
      .selectDistinct({ generation: urlListChunks.generation })
      .from(urlListChunks)
      .where(eq(urlListChunks.name, '@model/lexical-host'));
    expect(modelGenerations).toHaveLength(1);
    await app.runtime.db.delete(urlListSources).where(eq(urlListSources.name, name));
    await store.prune((await store.states()).map((s) => s.name));
    expect(await generations()).toEqual([]);
  });

  it('GET /api/v1/url/lists shows each feed: name, category, entries, fetched at, last error', async () => {
    const user = await app.signUp();
    expect((await app.get('/api/v1/url/lists')).status).toBe(401);
    const res = await app.get('/api/v1/url/lists', { 'x-api-key': user.apiKey });
    expect(res.status).toBe(200);
    const gambling = res.body.lists.find((l: { name: string }) => l.name === `fixture-gambling-${run}`);
    expect(gambling).toMatchObject({ category: 'gambling', format: 'domains', entries: 3, last_error: 'HTTP 500' });
    expect(Date.parse(gambling.fetched_at)).toBeGreaterThan(Date.now() - 600_000);
    const phish = res.body.lists.find((l: { name: string }) => l.name === `fixture-phish-${run}`);
    expect(phish).toMatchObject({ entries: 5, skipped_lines: 1, last_error: expect.stringContaining('/banner/*/img^') });
    // The learned models in use, trained or not (CONTRACT §5), here and in readiness.
    const names = ['url-host-model', 'url-smishing-model', 'url-shorteners', 'message-model'];
    expect(res.body.models.map((m: { name: string }) => m.name)).toEqual(names);
    for (const model of res.body.models)
      expect(model).toEqual({
        name: expect.any(String),
        trained: expect.any(Boolean),
        examples: expect.any(Number),
        trained_at: model.trained ? expect.any(String) : null,
      });
    const ready = await app.get('/healthz/ready');
    expect(ready.body).toEqual({ status: 'ok', models: res.body.models });
    expect((await app.get('/healthz')).body).toEqual({ status: 'ok' });
  });

  it('answers the API with the list verdict, and the shortener refuses a listed URL with 422 free of charge', async () => {
    const user = await app.signUp();
    await app.post('/api/v1/subscriptions', { api: 'harmful-url-detection' }, user.apiKey);
    const res = await app.post('/api/v1/url/detect', { url: 'https://www.blue-harbor-games.org/play' }, user.apiKey);
    expect(res.body).toMatchObject({ success: true, is_malicious: true, category: 'gambling', source: 'list' });
    const before = await app.remaining(user.apiKey, 'url-shortener');
    const short = await app.post('/api/v1/url/shorten', { url: 'https://login-verify-account.example/secure' }, user.apiKey);
    expect(short.status).toBe(422);
    expect(await app.remaining(user.apiKey, 'url-shortener')).toBe(before);
  });
});

describe('scheduled refresh (injected scheduler and clock)', () => {
  it('refreshes on each tick and once after start when the lists are older than one period; a refresh during load answers every request', async () => {
    let tick: (() => Promise<unknown>) | undefined;
    let clock = new Date(Date.now() + 7 * 3600_000);
    const name = `fixture-sched-${run}`;
    const scheduled = await startTestApp(
      {
        URL_LIST_FEEDS: `${name}=adult:hosts:${feedBase}/adult.hosts, ${name}-bad=adult:rss:${feedBase}/x, ${name}-top=clean:domains:${feedBase}/top-sites.txt`,
      },
      {
        urlLists: {
          scheduler: {
            schedule: (expression, job) => {
              expect(expression).toBe('0 */6 * * *');
              tick = job;
              return { stop: async () => {} };
            },
            periodMs: () => 6 * 3600_000,
          },
          now: () => clock,
          startupDelayMs: 5,
          download: { sleep: async () => {} },
        },
      },
    );
    try {
      const detection = scheduled.runtime.urlDetection;
      const loadedAtStart = detection.engine.listVersion;
      detection.start(scheduled.runtime.config.URL_LIST_REFRESH);
      // The start-up check: nothing stored for this feed set is fresh → a refresh soon after start.
      await expect.poll(async () => (await detection.store.states()).find((s) => s.name === name)?.entries, { timeout: 10_000 }).toBe(3);
      await expect.poll(() => detection.engine.listCheck('https://velvet-evenings.com/')?.category, { timeout: 10_000 }).toBe('adult');
      // The start-up refresh is over once its result is loaded (earlier tests' feeds may list the host already).
      await expect.poll(() => detection.engine.listVersion, { timeout: 10_000 }).toBeGreaterThan(loadedAtStart);
      const first = (await detection.store.states()).find((s) => s.name === name)?.fetchedAt;
      clock = new Date(clock.getTime() + 6 * 3600_000);
      // A tick while requests keep coming: each one is answered.
      const answers = Promise.all(Array.from({ length: 40 }, (_, i) => detection.engine.classify(`https://velvet-evenings.com/p${i}`)));
      const results = await tick?.();
      expect((await answers).every((v) => v.category === 'adult')).toBe(true);
      expect(results).toEqual([expect.objectContaining({ name, ok: true }), expect.objectContaining({ name: `${name}-top`, ok: true })]);
      const second = (await detection.store.states()).find((s) => s.name === name)?.fetchedAt;
      expect(second?.getTime()).toBe(clock.getTime());
      expect(second?.getTime()).toBeGreaterThan(first?.getTime() ?? Infinity);
    } finally {
      await scheduled.runtime.db.delete(urlListSources).where(like(urlListSources.name, `${name}%`));
      await scheduled.close();
    }
  });
});

describe('npm run lists:update (scripts/update-url-lists.ts)', () => {
  it.skipIf(testDatabaseEnv().DATABASE_URL !== undefined)(
    'on PGlite with a server running, says the server refreshes by itself',
    { timeout: 90_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'aih-lists-held-'));
      // The running server's hold on the embedded database.
      const held = await lockDataDir(dir);
      try {
        const script = fileURLToPath(new URL('../scripts/update-url-lists.ts', import.meta.url));
        const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', script], {
          env: {
            ...process.env,
            DATABASE_URL: '',
            DATA_DIR: dir,
            LOG_LEVEL: 'silent',
            URL_LIST_FEEDS: `x=adult:hosts:${feedBase}/adult.hosts`,
          },
          timeout: 80_000,
        });
        expect(stdout).toContain('실행 중인 서버가 내장 데이터베이스');
        expect(stdout).toContain('스스로 갱신하므로 따로 실행할 필요가 없습니다');
      } finally {
        await held.release();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('writes the configured feeds into the database the service then starts with', { timeout: 90_000 }, async () => {
    // A copy of the run's migrated database, as after a restart: creating a cluster costs ~4 s of CPU.
    const dir = migratedDataDir('aih-lists-');
    try {
      const dbEnv = testDatabaseEnv().DATABASE_URL ? testDatabaseEnv() : { DATA_DIR: dir };
      const env = {
        LOG_LEVEL: 'silent',
        ...dbEnv,
        URL_LIST_FEEDS: `fixture-script-${run}=adult:hosts:${feedBase}/adult.hosts, fixture-broken-${run}=spam:domains:${feedBase}/nope, fixture-top-${run}=clean:domains:${feedBase}/top-sites.txt`,
      };
      const results = await updateUrlLists(loadConfig(env));
      expect(results?.map((r) => [r.name, r.ok])).toEqual([
        [`fixture-script-${run}`, true],
        [`fixture-broken-${run}`, false],
        [`fixture-top-${run}`, true],
      ]);

      const runtime = await createRuntime(loadConfig(env));
      try {
        expect(await runtime.urlDetection.engine.classify('https://midnight-gallery.net/')).toMatchObject({
          category: 'adult',
          source: 'list',
        });
      } finally {
        await runtime.db.delete(urlListSources).where(like(urlListSources.name, `fixture-%-${run}`));
        await runtime.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
