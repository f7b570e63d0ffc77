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
  if (url.username || url.password) throw invalidUrl('계정 정보(사용자명/비밀번호)가 포함된 URL은 단축할 수 없습니다.', 'URLs with a user name or password cannot be shortened.');
  if (pointsInto(url, new URL(shortUrlBase))) throw invalidUrl('이 서비스의 단축 URL은 다시 단축할 수 없습니다.', 'A short link of this service cannot be shortened again.');
  const normalized = url.href;
  if (normalized.length > MAX_URL_LENGTH) throw invalidUrl(`정규화한 URL이 ${MAX_URL_LENGTH}자를 넘습니다.`, `The URL is longer than ${MAX_URL_LENGTH} characters.`);
  return normalized;
}

function pointsInto(url: URL, base: URL): boolean {
  const basePath = base.pathname.replace(/\/+$/, '');
  return url.host === base.host && (basePath === '' || url.pathname === basePath || url.pathname.startsWith(`${basePath}/`));
}

function invalidUrl(reason: string, english: string): AppError {
  return fieldError('url', { ko: reason, en: english });
}
