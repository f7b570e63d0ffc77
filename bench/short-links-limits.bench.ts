import { measureHttp, postJson, report, startBareServer, startBenchService } from './lib.js';

const BROWSER =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

/**
 * Issue 36: the redirect with expiry and click limits in place, at 32 connections, beside a bare
 * node:http server answering the same bytes. Three links: an everyday one (the fast path, now
 * also recording QR/device/visitor facets), one with `expires_at` (checked against the clock in
 * express) and one with a `max_clicks` large enough to stay open (one atomic UPDATE per person's
 * click). The clicks come with a browser's User-Agent so they count. Target: the everyday link's
 * ratio to bare node:http stays ≥ 0.65 on PGlite; compare with the code before in alternating runs.
 */
export async function run(): Promise<void> {
  const service = await startBenchService();
  const { base, apiKey } = service;
  const make = async (body: object) => String((await postJson(base, '/api/v1/url/shorten', body, { 'x-api-key': apiKey })).code);
  const target = 'https://example.com/landing?utm_source=bench';
  const everyday = await make({ url: target });
  const expiring = await make({ url: target, expires_at: new Date(Date.now() + 365 * 86_400_000).toISOString() });
  const limited = await make({ url: target, max_clicks: 10_000_000 });

  const bare = await startBareServer((_req, res) => {
    res.writeHead(302, { Location: target, 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex', 'Content-Length': '0' });
    res.end();
  });
  const headers = { 'user-agent': BROWSER };
  const figures = [
    await measureHttp('everyday link', `${base}/s/${everyday}`, { expectStatus: 302, headers }),
    await measureHttp('with expires_at', `${base}/s/${expiring}`, { expectStatus: 302, headers }),
    await measureHttp('with max_clicks (atomic count)', `${base}/s/${limited}`, { expectStatus: 302, headers }),
  ];
  const baseline = await measureHttp('bare node:http 302', bare.url, { expectStatus: 302, headers });
  report('Redirect with expiry and click limits (32 connections, 5 s)', figures, baseline);
  console.log('ratio target (everyday link) ≥ 0.65 on PGlite');
  await bare.close();
  await service.close();
}
