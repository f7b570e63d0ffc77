import { AppError, fieldError } from '../../errors.js';
import { safeRequest, type AddressLookup, type AddressPolicy } from '../../net/safe-request.js';

/**
 * Fetching a public page to store as knowledge (issue 39 item 2): every hop through
 * `safeRequest` (the host's addresses checked after DNS and again once connected, the checked
 * address connected to: no SSRF at any hop, as webhooks and short-link expansion), redirects
 * followed by hand up to MAX_HOPS, the whole fetch within a time limit and the body within a
 * size cap, and only `text/html` and `application/pdf` accepted.
 */

export interface FetchedPage {
  kind: 'html' | 'pdf';
  body: Buffer;
  /** The address the page was finally read from. */
  url: string;
}

export interface PageFetcherOptions {
  /** Production: public addresses only; tests inject a policy that lets their loopback fake through. */
  policy?: AddressPolicy;
  resolve?: AddressLookup;
  totalMs?: number;
  maxBytes?: number;
}

export type PageFetcher = (url: string, signal?: AbortSignal) => Promise<FetchedPage>;

const MAX_HOPS = 5;
const TOTAL_MS = 10_000;
const MAX_BYTES = 5 * 1024 * 1024;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const pageError = (ko: string, en: string, code: 'UNPROCESSABLE' | 'INVALID_REQUEST' | 'PAYLOAD_TOO_LARGE' = 'UNPROCESSABLE') =>
  fieldError('url', { ko, en }, code);

/** Checks the URL's form: absolute http(s), no credentials (they would be sent to the host). */
export function parsePageUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw pageError(
      'http:// 또는 https://로 시작하는 주소를 넣어 주세요.',
      'Give an address starting with http:// or https://.',
      'INVALID_REQUEST',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw pageError(
      'http:// 또는 https://로 시작하는 주소를 넣어 주세요.',
      'Give an address starting with http:// or https://.',
      'INVALID_REQUEST',
    );
  if (url.username || url.password)
    throw pageError(
      '아이디·비밀번호가 든 주소는 가져오지 않습니다.',
      'Addresses carrying a user name or password are not fetched.',
      'INVALID_REQUEST',
    );
  return url;
}

export function createPageFetcher(options: PageFetcherOptions = {}): PageFetcher {
  const totalMs = options.totalMs ?? TOTAL_MS;
  const maxBytes = options.maxBytes ?? MAX_BYTES;
  return async function fetchPage(raw, outer) {
    let url = parsePageUrl(raw);
    const signal = outer ? AbortSignal.any([outer, AbortSignal.timeout(totalMs)]) : AbortSignal.timeout(totalMs);
    for (let hop = 0; hop <= MAX_HOPS; hop++) {
      let response;
      try {
        response = await safeRequest(url, {
          method: 'GET',
          signal,
          maxBodyBytes: maxBytes + 1,
          headers: { accept: 'text/html,application/xhtml+xml,application/pdf;q=0.9', 'user-agent': 'ai-utility-hub-knowledge/1' },
          policy: options.policy,
          resolve: options.resolve,
        });
      } catch (error) {
        throw fetchFailure(error, signal, totalMs);
      }
      const location = response.headers.location;
      if (REDIRECTS.has(response.status) && location) {
        // The next hop is checked like the first (scheme, credentials, addresses): no open door through a redirect.
        try {
          url = parsePageUrl(new URL(location, url).href);
        } catch {
          throw pageError('페이지가 http(s)가 아닌 주소로 이동시켜 가져오지 않았습니다.', 'The page redirected to a non-http(s) address.');
        }
        continue;
      }
      if (response.status < 200 || response.status >= 300)
        throw pageError(
          `페이지를 가져오지 못했습니다 (HTTP ${response.status}).`,
          `The page could not be fetched (HTTP ${response.status}).`,
        );
      if (response.truncated || response.body.length > maxBytes)
        throw pageError(
          `페이지가 너무 큽니다 (${maxBytes / 1024 / 1024}MB까지).`,
          `The page is too large (at most ${maxBytes / 1024 / 1024} MB).`,
          'PAYLOAD_TOO_LARGE',
        );
      const type = String(response.headers['content-type'] ?? '')
        .split(';')[0]!
        .trim()
        .toLowerCase();
      if (type === 'application/pdf') return { kind: 'pdf', body: response.body, url: url.href };
      if (type === 'text/html' || type === 'application/xhtml+xml')
        return { kind: 'html', body: toUtf8(response.body, String(response.headers['content-type'] ?? '')), url: url.href };
      throw pageError(
        `HTML 페이지와 PDF만 저장할 수 있습니다 (받은 형식: ${type || '알 수 없음'}).`,
        `Only HTML pages and PDFs can be stored (got ${type || 'an unknown type'}).`,
      );
    }
    throw pageError(`리디렉션이 ${MAX_HOPS}번을 넘어 가져오지 않았습니다.`, `More than ${MAX_HOPS} redirects.`);
  };
}

/** The page as UTF-8: a Korean site still sending EUC-KR (by its header or its `<meta charset>`) is decoded first. */
function toUtf8(body: Buffer, contentType: string): Buffer {
  const declared =
    /charset=["']?([\w-]+)/i.exec(contentType)?.[1] ??
    /<meta[^>]{0,200}charset=["']?([\w-]+)/i.exec(body.subarray(0, 4096).toString('latin1'))?.[1];
  const charset = declared?.toLowerCase();
  if (!charset || charset === 'utf-8' || charset === 'utf8') return body;
  try {
    return Buffer.from(new TextDecoder(charset).decode(body), 'utf8');
  } catch {
    return body;
  }
}

function fetchFailure(error: unknown, signal: AbortSignal, totalMs: number): AppError {
  if (error instanceof AppError) return error;
  if (signal.aborted)
    return new AppError('UPSTREAM_TIMEOUT', `페이지를 ${totalMs / 1000}초 안에 가져오지 못했습니다.`).en(
      `The page did not arrive within ${totalMs / 1000} s.`,
    );
  const code = (error as { code?: string }).code;
  if (code === 'EFORBIDDENADDRESS')
    return pageError(
      '내부망·예약 주소의 페이지는 가져오지 않습니다.',
      'Pages on internal or reserved addresses are not fetched.',
      'INVALID_REQUEST',
    );
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return pageError('주소의 호스트를 찾지 못했습니다.', 'The host of the address was not found.');
  return pageError('페이지에 연결하지 못했습니다.', 'Could not connect to the page.');
}
