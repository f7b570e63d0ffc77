import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { projectPath } from '../../src/paths.js';

/** The newest snapshot of each shared list, both KISA reports and the clean reference (../shared/data, read in place). */
const FEEDS = [
  { name: 'gambling-emta', category: 'gambling', format: 'adblock', file: 'url-lists/gambling-estonia-emta-abp-2025-09-03.txt' },
  { name: 'adult-antiporn', category: 'adult', format: 'hosts', file: 'url-lists/adult-antiporn-hosts-2026-03-06.txt.gz' },
  { name: 'phishing-openphish', category: 'phishing', format: 'adblock', file: 'url-lists/phishing-openphish-adblock-2025-04-18.txt.gz' },
  { name: 'spam-gaso', category: 'spam', format: 'domains', file: 'url-lists/spam-gaso-scam-2026-03-09.txt' },
  { name: 'malware-usom', category: 'malware', format: 'domains', file: 'url-lists/malware-usom-2022-12-15.txt.gz' },
  { name: 'kisa-2022', category: 'phishing', format: 'csv', file: 'url-lists-kr/kisa-phishing-2022-09-11.csv' },
  { name: 'kisa-2023', category: 'phishing', format: 'csv', file: 'url-lists-kr/kisa-phishing-2023-01-06.csv' },
  { name: 'top-sites', category: 'clean', format: 'domains', file: 'url-lists/clean-umbrella-top-100k-2026-07-24.txt.gz' },
] as const;

/**
 * `URL_LIST_FEEDS` for a service under evaluation: the shared lists served by a loopback HTTP
 * server that lives as long as this process (an evaluation's feeds, as `lists:update` downloads them).
 */
export async function sharedFeedsEnv(): Promise<Record<string, string>> {
  const root = projectPath('..', 'shared', 'data');
  const bodies = new Map<string, Buffer>(
    await Promise.all(FEEDS.map(async (feed) => [`/${feed.name}`, await readFile(join(root, feed.file))] as const)),
  );
  const server = createServer((req, res) => {
    const body = bodies.get(req.url ?? '');
    res.writeHead(body ? 200 : 404).end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    URL_LIST_FEEDS: FEEDS.map((feed) => `${feed.name}=${feed.category}:${feed.format}:${base}/${feed.name}`).join(','),
    URL_LIST_REFRESH: 'off',
  };
}
