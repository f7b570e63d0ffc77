import { z } from 'zod';
import { csvCell, isUrlColumn } from './feed-csv.js';
import { downloadFeed, type DownloadOptions } from './feed-download.js';
import { DEFAULT_MAX_FEED_BYTES } from './feed-lines.js';

/**
 * The public-data portal's open API (api.odcloud.kr, "odcloud"): a data set's rows as JSON pages,
 * `GET {url}?page=N&perPage=M&returnType=JSON&serviceKey=KEY` →
 * `{page, perPage, totalCount, currentCount, matchCount, data: [{날짜, 홈페이지주소}, …]}`.
 * Rows are keyed by the data set's Korean column names; the address column is found as in a
 * CSV header. The pages are turned into one CSV body (`url` header, one address a line) so the
 * CSV reader, its limits and its cleaning apply unchanged.
 */

/** Rows asked per page (the portal serves up to a few thousand; 1,000 keeps each answer small). */
const PER_PAGE = 1000;
/** One page's JSON (1,000 short rows are ~100 KB). */
const MAX_PAGE_BYTES = 16 * 1024 * 1024;
/** A million rows: a `totalCount` beyond that is not believed. */
const MAX_PAGES = 1000;

const pageSchema = z.object({
  totalCount: z.coerce.number().int().nonnegative(),
  data: z.array(z.record(z.string(), z.unknown())),
});

/** KISA's phishing-site URLs (data set 15109780, 한국인터넷진흥원_피싱사이트 URL) under a portal base. */
export function kisaPhishingUrl(apiBase: string): string {
  return `${apiBase.replace(/\/+$/, '')}/15109780/v1/uddi:707478dd-938f-4155-badb-fae6202ee7ed`;
}

/** The key is added to the request only: never to the stored feed URL, a log line or an error. */
function pageUrl(url: string, page: number, serviceKey: string): string {
  const target = new URL(url);
  target.searchParams.set('page', String(page));
  target.searchParams.set('perPage', String(PER_PAGE));
  target.searchParams.set('returnType', 'JSON');
  target.searchParams.set('serviceKey', serviceKey);
  return target.href;
}

/**
 * Downloads every page of an odcloud data set as a CSV body. The pages together are held to
 * the feed cap; an answer that is not the portal's page shape is an error (the feed keeps its
 * previous entries).
 */
export async function downloadOdcloudFeed(url: string, serviceKey: string, options: DownloadOptions = {}): Promise<Buffer> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_FEED_BYTES;
  const lines: string[] = ['url'];
  let received = 0;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const body = await downloadFeed(pageUrl(url, page, serviceKey), { ...options, maxBytes: Math.min(MAX_PAGE_BYTES, maxBytes) });
    received += body.length;
    if (received > maxBytes) throw new Error(`the feed is larger than ${Math.round(maxBytes / 1e6)} MB`);
    let parsed: z.infer<typeof pageSchema>;
    try {
      parsed = pageSchema.parse(JSON.parse(body.toString('utf8')));
    } catch {
      throw new Error(`page ${page} is not an odcloud JSON page (data[], totalCount)`);
    }
    for (const row of parsed.data) {
      const address = rowAddress(row);
      if (address === undefined) continue;
      lines.push(csvCell(address));
    }
    if (parsed.data.length === 0 || page * PER_PAGE >= parsed.totalCount) break;
  }
  return Buffer.from(`${lines.join('\n')}\n`, 'utf8');
}

/** The row's address: the value of its URL column (`홈페이지주소`, `URL`…). */
function rowAddress(row: Record<string, unknown>): string | undefined {
  for (const [key, value] of Object.entries(row)) if (isUrlColumn(key) && typeof value === 'string') return value;
  return undefined;
}
