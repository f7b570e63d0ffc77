import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { AppError } from '../../errors.js';
import { isForbiddenAddress } from '../../net/address-policy.js';

export interface WebhookUrlPolicy {
  /** `WEBHOOK_ALLOW_INSECURE=1`: http and loopback/private targets allowed (local development, tests). */
  allowInsecure: boolean;
}

export type AddressLookup = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

const systemLookup: AddressLookup = (hostname) => lookup(hostname, { all: true, verbatim: true });

const refuse = (message: string) => new AppError('INVALID_REQUEST', `'webhook_url' 필드: ${message}`, { field: 'webhook_url' });

/** Hosts that name this machine or a private network without a DNS answer to check. */
const LOCAL_NAMES = /(^|\.)(localhost|local|internal|intranet|lan|home\.arpa)$/i;

/**
 * Checks a webhook URL when a watch is created: absolute https (http only when insecure
 * targets are allowed), no credentials in it, and a host whose every address is public.
 * The same address check runs again at send time (`pinnedLookup`), against DNS rebinding.
 */
export async function checkWebhookUrl(raw: string, policy: WebhookUrlPolicy, resolve: AddressLookup = systemLookup): Promise<URL> {
  if (!URL.canParse(raw)) throw refuse('올바른 URL이 아닙니다.');
  const url = new URL(raw);
  if (url.protocol !== 'https:' && !(policy.allowInsecure && url.protocol === 'http:')) throw refuse('https:// 주소만 사용할 수 있습니다.');
  if (url.username || url.password) throw refuse('URL에 사용자 이름이나 비밀번호를 넣을 수 없습니다.');
  if (policy.allowInsecure) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (LOCAL_NAMES.test(host)) throw refuse('내부 주소로는 보낼 수 없습니다.');
  const addresses = isIP(host)
    ? [host]
    : await resolve(host).then(
        (found) => found.map((entry) => entry.address),
        () => [],
      );
  if (addresses.length === 0) throw refuse('호스트 주소를 찾을 수 없습니다.');
  if (addresses.some(isForbiddenAddress)) throw refuse('사설·내부 네트워크 주소로는 보낼 수 없습니다.');
  return url;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | Array<{ address: string; family: number }>,
  family?: number,
) => void;

/**
 * A `lookup` for `http.request`: resolves the host and refuses the connection when any of
 * its addresses is private, so the address connected to is the address checked (a DNS
 * answer that changes between the check and the connection cannot reach the inside).
 */
export function pinnedLookup(policy: WebhookUrlPolicy, resolve: AddressLookup = systemLookup) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    resolve(hostname).then(
      (found) => {
        if (found.length === 0) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
        if (!policy.allowInsecure && found.some((entry) => isForbiddenAddress(entry.address))) {
          return callback(Object.assign(new Error('webhook host resolves to a private address'), { code: 'EPRIVATE' }), '');
        }
        if (options.all) return callback(null, found);
        const first = found[0]!;
        callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}
