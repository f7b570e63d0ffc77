import { measureHttp, postJson, report, signUp, startBareServer, startBenchService } from './lib.js';

/**
 * The redirect (the hottest path) and POST /url/shorten, at 32 connections, each beside a bare
 * node:http server answering the same bytes. The service runs as in production: file-backed
 * PGlite (or BENCH_DATABASE_URL), request logging on at info (to /dev/null).
 */
export async function run(): Promise<void> {
  const service = await startBenchService();
  const { base, apiKey, runtime } = service;
  const created = await postJson(
    base,
    '/api/v1/url/shorten',
    { url: 'https://example.com/landing?utm_source=bench' },
    { 'x-api-key': apiKey },
  );
  const code = String(created.short_url).split('/').pop();

  const bareRedirect = await startBareServer((_req, res) => {
    res.writeHead(302, {
      Location: 'https://example.com/landing?utm_source=bench',
      'Cache-Control': 'private, no-store',
      'X-Robots-Tag': 'noindex',
      'Content-Length': '0',
    });
    res.end();
  });
  const redirect = await measureHttp('service GET /s/<code>', `${base}/s/${code}`, { expectStatus: 302 });
  const bare = await measureHttp('bare node:http 302', bareRedirect.url, { expectStatus: 302 });
  report('Redirect (32 connections, 5 s)', [redirect], bare);
  console.log(`redirect p99 ${redirect.p99Ms} ms (target < 10 ms); ratio target ≥ 0.50`);
  await bareRedirect.close();

  const bareShorten = await startBareServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: true, short_url: `${runtime.config.SHORT_URL_BASE}/abcde`, api: 'url-shortener', remaining: 1 }));
    });
  });
  const shortenOptions = {
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({ url: 'https://example.com/article/[<id>]?ref=bench' }),
    uniqueIds: true,
  };
  const shorten = await measureHttp('service, one account', `${base}/api/v1/url/shorten`, shortenOptions);
  // One account's calls queue on its quota row (each decrement waits for the previous commit);
  // many accounts show what the door itself sustains.
  // One after another: the log-in lane hashes one password at a time and refuses past 8 waiting,
  // so 32 sign-ups at once left most of these keys empty (every call a 401).
  const apiKeys: string[] = [];
  while (apiKeys.length < 32) apiKeys.push(await signUp(base));
  const manyAccounts = await measureHttp('service, 32 accounts', `${base}/api/v1/url/shorten`, { ...shortenOptions, apiKeys });
  const bareCreate = await measureHttp('bare node:http JSON', bareShorten.url, shortenOptions);
  report(`POST /api/v1/url/shorten, new URL per request (${runtime.databaseKind})`, [shorten, manyAccounts], bareCreate);
  await bareShorten.close();

  await service.close();
}
