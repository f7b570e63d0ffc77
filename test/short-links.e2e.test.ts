import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedDataDir, startServerProcess, type ServerProcess } from './helpers/process.js';

/** A country database as operators get them (CC0 ip-location-db, MaxMind format), from its npm package. */
const GEOIP_DB = fileURLToPath(
  new URL('../node_modules/@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb', import.meta.url),
);
const dataDir = migratedDataDir('aih-links-');
const BROWSER = 'Mozilla/5.0 (Linux; Android 14; SM-S918N) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

let server: ServerProcess;
let base: string;
let apiKey: string;

async function call(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await fetch(base + path, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    redirect: 'manual',
  });
  const text = await res.text();
  return { status: res.status, body: text.startsWith('{') ? JSON.parse(text) : text };
}

/**
 * The production path configured only by the environment: `GEOIP_DB` gives the statistics a
 * country, `URL_RESCAN` (every two seconds here) re-checks live links with the full detector.
 */
beforeAll(async () => {
  server = startServerProcess({
    ...(process.env.TEST_DB === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL! } : { DATA_DIR: dataDir }),
    GEOIP_DB,
    URL_RESCAN: '*/2 * * * * *',
    URL_LIST_REFRESH: 'off',
    WATCH_CRON: 'off',
    URL_EXPAND: 'off',
  });
  base = `http://127.0.0.1:${await server.ready}`;
  const credentials = { email: `links-${process.pid}-${Date.now()}@example.com`, password: 'correct horse battery' };
  await call('/api/v1/auth/register', { method: 'POST', body: credentials });
  const { token } = (await call('/api/v1/auth/login', { method: 'POST', body: credentials })).body;
  apiKey = (await call('/api/v1/keys', { method: 'POST', body: {}, headers: { authorization: `Bearer ${token}` } })).body.api_key;
}, 120_000);

afterAll(async () => {
  server?.child.kill('SIGTERM');
  await server?.exited;
  rmSync(dataDir, { recursive: true, force: true });
});

describe('short links configured by the environment', () => {
  it('says at start that the rescan runs and the GeoIP database is open', () => {
    expect(server.output()).toMatch(/GEOIP_DB opened/);
    expect(server.output()).toMatch(/short-link rescan scheduled/);
  });

  it('counts a click from Korea under KR (GEOIP_DB), and families from the User-Agent', async () => {
    const made = await call('/api/v1/url/shorten', {
      method: 'POST',
      body: { url: 'https://geo.example/kr' },
      headers: { 'x-api-key': apiKey },
    });
    const code = made.body.code as string;
    // From a proxy on this host: the address is the forwarded one (211.234.10.1 is a Korean carrier's).
    const click = await call(`/s/${code}`, { headers: { 'user-agent': BROWSER, 'x-forwarded-for': '211.234.10.1' } });
    expect(click.status).toBe(302);
    const stats = await call(`/api/v1/url/shorten/${code}/stats`, { headers: { 'x-api-key': apiKey } });
    expect(stats.body.countries).toEqual([{ name: 'KR', clicks: 1 }]);
    expect(stats.body.countries_note).toBeUndefined();
    expect(stats.body.os).toEqual([{ name: 'Android', clicks: 1 }]);
    expect(stats.body.unique_visitors).toHaveLength(1);
  });

  it('re-checks a live link on URL_RESCAN and puts it behind the warning page once the detector calls it harmful', async () => {
    // Not on any list, so made and redirected; the full detector's rules call it phishing.
    const made = await call('/api/v1/url/shorten', {
      method: 'POST',
      body: { url: 'https://naver.com.secure-login.top/' },
      headers: { 'x-api-key': apiKey },
    });
    expect(made.status).toBe(200);
    const code = made.body.code as string;
    await server.waitForOutput(/short link turned harmful/);
    const stats = await call(`/api/v1/url/shorten/${code}/stats`, { headers: { 'x-api-key': apiKey } });
    expect(stats.body).toMatchObject({ status: 'blocked', safety: { state: 'harmful', category: 'phishing' } });
    const click = await call(`/s/${code}`, { headers: { 'user-agent': BROWSER, accept: 'text/html' } });
    expect(click.status).toBe(403);
    expect(click.body).toContain('위험한 링크');
  }, 60_000);
});
