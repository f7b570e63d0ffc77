import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UrlSafetyChecker } from '../src/operations/url-detect/checker.js';
import { ownTestDatabase, startTestApp, type TestApp } from './helpers/app.js';

const BROWSER = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15';
const harmful = new Set<string>();
const checker: UrlSafetyChecker = {
  check: async (url) =>
    harmful.has(url)
      ? { isMalicious: true, category: 'malware', reason: '악성코드 배포 주소입니다.' }
      : { isMalicious: false, category: 'clean', reason: '알려진 위험 신호가 없습니다.' },
  listCheck: () => undefined,
};

/**
 * Issue 36 and issue 40 item 6 on two instances sharing one PostgreSQL (two runtimes, each with
 * its own pool, cache and listener, as two processes have). PGlite admits one process: skipped there.
 */
describe.skipIf(process.env.TEST_DB !== 'postgres')('short links on two instances on one PostgreSQL', () => {
  let a: TestApp;
  let b: TestApp;
  // Both instances on a database of their own: `runOnce(0)` rescans every live link it finds, and
  // on the shared one it took short-links.int's links (another checker, another clock) mid-test.
  let database: Awaited<ReturnType<typeof ownTestDatabase>>;
  beforeAll(async () => {
    database = await ownTestDatabase('aih_links_instances');
    a = await startTestApp(database.env, { urlChecker: checker });
    b = await startTestApp(database.env, { urlChecker: checker });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  const click = (app: TestApp, code: string) =>
    fetch(`${app.url}/s/${code}`, { redirect: 'manual', headers: { 'user-agent': BROWSER, accept: 'application/json' } }).then(
      (res) => res.status,
    );

  it('lets exactly max_clicks of 200 concurrent clicks through, whichever instance answers', async () => {
    const user = await a.signUp();
    const made = await a.post('/api/v1/url/shorten', { url: 'https://two.example/limited', max_clicks: 50 }, user.apiKey);
    const code: string = made.body.code;
    // Both instances know the link before the race (their caches may hold it).
    expect(await click(a, code)).toBe(302);
    expect(await click(b, code)).toBe(302);
    const statuses = await Promise.all(Array.from({ length: 200 }, (_, i) => click(i % 2 ? a : b, code)));
    expect(statuses.filter((status) => status === 302)).toHaveLength(48);
    expect(statuses.filter((status) => status === 410)).toHaveLength(152);
    const stats = await b.get(`/api/v1/url/shorten/${code}/stats`, { 'x-api-key': user.apiKey });
    expect(stats.body).toMatchObject({ status: 'used_up', clicks_used: 50, max_clicks: 50 });
  });

  it('puts a link found harmful by one instance’s rescan behind the warning page on the other too', async () => {
    const user = await a.signUp();
    const { code } = (await a.post('/api/v1/url/shorten', { url: 'https://two.example/turns-bad' }, user.apiKey)).body;
    expect(await click(b, code)).toBe(302); // b caches the target
    harmful.add('https://two.example/turns-bad');
    await a.runtime.linkRescan.runOnce(0);
    // b is told through NOTIFY; wait for the notification, not for a time.
    let status = 302;
    for (let attempt = 0; status !== 403 && attempt < 500; attempt++) {
      status = await click(b, code);
      if (status !== 403) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(status).toBe(403);
  });
});
