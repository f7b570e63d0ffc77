import { fieldError, type AppError } from '../../errors.js';
import { MAX_URL_LENGTH } from './shorten.schema.js';

/**
 * The canonical form of a link target: WHATWG URL serialization lower-cases the host,
 * converts IDN to punycode, drops default ports and resolves `.`/`..` segments. Two spellings
 * of the same address then share one short code.
 *
 * Refused (400, naming `url`): anything but absolute http(s), credentials in the URL,
 * over-long URLs, and links into the service's own short-link space (redirect loops).
 */
export function normalizeTargetUrl(raw: string, shortUrlBase: string): string {
  if (!/^https?:\/\//i.test(raw) || !URL.canParse(raw)) {
    throw invalidUrl('http:// 또는 https://로 시작하는 올바른 URL이 아닙니다.', 'Not a valid URL starting with http:// or https://.');
  }
  const url = new URL(raw);
  if (!url.hostname) throw invalidUrl('호스트가 없는 URL입니다.', 'The URL has no host.');
  if (url.username || url.password)
    throw invalidUrl(
      '계정 정보(사용자명/비밀번호)가 포함된 URL은 단축할 수 없습니다.',
      'URLs with a user name or password cannot be shortened.',
    );
  if (pointsInto(url, new URL(shortUrlBase)))
    throw invalidUrl('이 서비스의 단축 URL은 다시 단축할 수 없습니다.', 'A short link of this service cannot be shortened again.');
  const normalized = url.href;
  if (normalized.length > MAX_URL_LENGTH)
    throw invalidUrl(`정규화한 URL이 ${MAX_URL_LENGTH}자를 넘습니다.`, `The URL is longer than ${MAX_URL_LENGTH} characters.`);
  return normalized;
}

/**
 * True when the URL lands in the short-link space. The service's own host is compared without a
 * trailing dot (`localhost.` is `localhost`), and any loopback name or address (127.0.0.0/8,
 * `[::1]`, `localhost`, `*.localhost`, `0.0.0.0`) counts as the service itself when the path is
 * the short-link path: such a link can only ever point back here.
 */
function pointsInto(url: URL, base: URL): boolean {
  const basePath = base.pathname.replace(/\/+$/, '');
  const inPath = basePath === '' || url.pathname === basePath || url.pathname.startsWith(`${basePath}/`);
  if (!inPath) return false;
  const host = bareHost(url.hostname);
  if (isLoopback(host)) return basePath !== '' || isLoopback(bareHost(base.hostname));
  return host === bareHost(base.hostname) && effectivePort(url) === effectivePort(base);
}

function bareHost(hostname: string): string {
  return hostname.toLowerCase().replace(/\.+$/, '');
}

function isLoopback(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (/^127\.\d+\.\d+\.\d+$/.test(host) || host === '0.0.0.0') return true;
  // WHATWG serializes IPv6 compressed in brackets: [::1], [::], [::ffff:7f00:1] (= 127.0.0.1).
  return host === '[::1]' || host === '[::]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host);
}

function effectivePort(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

function invalidUrl(reason: string, english: string): AppError {
  return fieldError('url', { ko: reason, en: english });
}
