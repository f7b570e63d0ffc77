import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { urlListSources } from '../db/schema.js';
import { updateUrlLists } from '../scripts/update-url-lists.js';
import { loadConfig } from '../src/config.js';
import { createRuntime } from '../src/runtime.js';
import { parseFeed, parseFeedSpecs, type FeedSpec } from '../src/operations/url-detect/feeds.js';
import { startTestApp, testDatabaseEnv, type TestApp } from './helpers/app.js';

const FIXTURES = new URL('./fixtures/url-lists/', import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, FIXTURES));
// Feed names are unique per run: on PostgreSQL the list tables are shared with other test files.
const run = Math.random().toString(36).slice(2, 8);

let feedServer: Server;
let feedBase: string;
let app: TestApp;

beforeAll(async () => {
  feedServer = createServer((req, res) => {
    const files: Record<string, Buffer> = {
      '/urlhaus.txt': fixture('urlhaus-online.txt'),
      '/gambling/domains': fixture('gambling-domains.txt'),
      '/gambling/domains.gz': gzipSync(fixture('gambling-domains.txt')),
      '/adult.hosts': fixture('adult.hosts'),
      '/empty.txt': Buffer.from('# nothing here\n'),
    };
    const body = files[req.url ?? ''];
    if (!body) {
      res.writeHead(500).end('broken');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end(body);
  }).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => feedServer.once('listening', resolve));
  feedBase = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}`;
  app = await startTestApp();
  // On PostgreSQL an interrupted earlier run may have left fixture feeds: start without them.
  await app.runtime.db.delete(urlListSources).where(like(urlListSources.name, 'fixture-%'));
  await app.runtime.urlDetection.refresh();
});

afterAll(async () => {
  // PostgreSQL outlives the run: leave no feeds behind for the next one.
  await app.runtime.db.delete(urlListSources).where(like(urlListSources.name, `fixture-%-${run}`));
  await app.close();
  await new Promise<void>((resolve) => feedServer.close(() => resolve()));
});

const feed = (name: string, category: FeedSpec['category'], format: FeedSpec['format'], path: string): FeedSpec => ({
  name: `fixture-${name}-${run}`,
  category,
  format,
  url: feedBase + path,
});

describe('feed parsing', () => {
  it('reads URL, domain and hosts formats, skipping comments and non-sinkhole host lines', () => {
    expect([...parseFeed(fixture('urlhaus-online.txt'), 'urls')]).toEqual([
      '198.51.100.23/bins/Mozi.m',
      '198.51.100.24/i',
      'quiet-garden-photos.com/wp-content/uploads/invoice.js',
      'files.example-cdn.net/dl/payload.bin',
    ]);
    expect([...parseFeed(gzipSync(fixture('gambling-domains.txt')), 'domains')]).toEqual([
      'sunny-fields-club.com/',
      'green-river-lounge.net/',
      'www.blue-harbor-games.org/',
    ]);
    expect([...parseFeed(fixture('adult.hosts'), 'hosts')]).toEqual(['velvet-evenings.com/', 'midnight-gallery.net/', 'silk-room.org/']);
  });

  it('reads URL_LIST_FEEDS and names a bad entry', () => {
    expect(parseFeedSpecs('gb=gambling:domains:https://x.test/d, malware:urls:https://y.test/u')).toEqual([
      { name: 'gb', category: 'gambling', format: 'domains', url: 'https://x.test/d' },
      { name: 'feed-2', category: 'malware', format: 'urls', url: 'https://y.test/u' },
    ]);
    expect(parseFeedSpecs(undefined).map((f) => f.name)).toContain('urlhaus');
    expect(() => parseFeedSpecs('weather:domains:https://x.test/')).toThrow(/URL_LIST_FEEDS/);
  });
});

describe('list update from a local server', () => {
  it('stores feeds, and a running engine picks them up on refresh', async () => {
    const { engine, store, refresh } = app.runtime.urlDetection;
    expect(engine.classifyRules('https://sunny-fields-club.com/').isMalicious).toBe(false);

    const results = await store.update([
      feed('haus', 'malware', 'urls', '/urlhaus.txt'),
      feed('gambling', 'gambling', 'domains', '/gambling/domains.gz'),
      feed('adult', 'adult', 'hosts', '/adult.hosts'),
    ]);
    expect(results.map((r) => [r.ok, r.entries])).toEqual([[true, 4], [true, 3], [true, 3]]);
    expect(await refresh()).toBe(true);
    expect(await refresh()).toBe(false);

    expect(await engine.classify('https://m.sunny-fields-club.com/anything')).toMatchObject({ isMalicious: true, category: 'gambling', source: 'list' });
    expect(await engine.classify('https://velvet-evenings.com/')).toMatchObject({ category: 'adult', source: 'list' });
    expect(await engine.classify('http://198.51.100.23:39123/bins/Mozi.m')).toMatchObject({ category: 'malware', source: 'list' });
    // A URL entry names that page, not its whole site.
    expect((await engine.classify('https://quiet-garden-photos.com/')).isMalicious).toBe(false);
    expect((await engine.classify('https://quiet-garden-photos.com/wp-content/uploads/invoice.js')).reason).toContain(`fixture-haus-${run}`);
  });

  it('keeps the previous entries when a download fails or comes back empty', async () => {
    const { engine, store, refresh } = app.runtime.urlDetection;
    const broken = await store.update([
      feed('gambling', 'gambling', 'domains', '/gone'),
      feed('adult', 'adult', 'hosts', '/empty.txt'),
    ]);
    expect(broken.map((r) => [r.ok, r.error])).toEqual([[false, 'HTTP 500'], [false, 'no entries in the feed']]);
    await refresh();
    expect((await engine.classify('https://green-river-lounge.net/')).category).toBe('gambling');
    expect((await engine.classify('https://silk-room.org/')).category).toBe('adult');
  });

  it('answers the API with the list verdict', async () => {
    const user = await app.signUp();
    await app.post('/api/v1/subscriptions', { api: 'harmful-url-detection' }, user.apiKey);
    const res = await app.post('/api/v1/url/detect', { url: 'https://www.blue-harbor-games.org/play' }, user.apiKey);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, is_malicious: true, category: 'gambling', source: 'list' });
  });
});

describe('npm run lists:update (scripts/update-url-lists.ts)', () => {
  it('writes the configured feeds into the database the service then starts with', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aih-lists-'));
    try {
      const dbEnv = testDatabaseEnv().DATABASE_URL ? testDatabaseEnv() : { DATA_DIR: dir };
      const env = {
        LOG_LEVEL: 'silent',
        ...dbEnv,
        URL_LIST_FEEDS: `fixture-script-${run}=adult:hosts:${feedBase}/adult.hosts, fixture-broken-${run}=spam:domains:${feedBase}/nope`,
      };
      const results = await updateUrlLists(loadConfig(env));
      expect(results.map((r) => [r.name, r.ok])).toEqual([[`fixture-script-${run}`, true], [`fixture-broken-${run}`, false]]);

      const runtime = await createRuntime(loadConfig(env));
      try {
        expect(await runtime.urlDetection.engine.classify('https://midnight-gallery.net/')).toMatchObject({ category: 'adult', source: 'list' });
      } finally {
        await runtime.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
