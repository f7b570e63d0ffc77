import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type Socket } from 'node:net';
import { isForbiddenAddress } from './address-policy.js';

/**
 * One HTTP request to an address the service does not control (a short link's hop, later a
 * webhook or a page), safe against SSRF at the network level:
 * - the host is resolved here and every address it has is checked before connecting; the
 *   connection then uses exactly the address that was checked (`lookup` pinned), so a DNS
 *   answer that changes between check and connect (rebinding) cannot reach the inside;
 * - the socket's remote address is checked again once connected;
 * - literal IP hosts are checked too (Node does not call `lookup` for them);
 * - no redirect is followed (the caller decides, hop by hop), no cookie is kept or sent;
 * - at most `maxBodyBytes` of the answer are read, then the connection is dropped.
 */

/** Which addresses may be connected to. Production: public unicast only. Tests inject their own. */
export interface AddressPolicy {
  isForbidden(address: string): boolean;
}

/** Loopback, private, link-local (cloud metadata 169.254.169.254), reserved, multicast… are refused. */
export const PUBLIC_ADDRESSES_ONLY: AddressPolicy = { isForbidden: isForbiddenAddress };

export type AddressLookup = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

const systemLookup: AddressLookup = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** The request reached, or would have reached, an address the policy refuses. */
export class ForbiddenAddressError extends Error {
  readonly code = 'EFORBIDDENADDRESS';
  constructor(readonly host: string) {
    super(`${host} resolves to an address that may not be reached`);
    this.name = 'ForbiddenAddressError';
  }
}

export interface SafeRequestOptions {
  method: 'GET' | 'HEAD';
  /** Aborts the request (a deadline shared by several hops). */
  signal: AbortSignal;
  maxBodyBytes: number;
  headers?: Record<string, string>;
  policy?: AddressPolicy;
  resolve?: AddressLookup;
}

export interface SafeResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The first `maxBodyBytes` of the body at most (`truncated` says when there was more). */
  body: Buffer;
  truncated: boolean;
  /** The address connected to. */
  address: string;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | Array<{ address: string; family: number }>,
  family?: number,
) => void;

export async function safeRequest(url: URL, options: SafeRequestOptions): Promise<SafeResponse> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`unsupported scheme ${url.protocol}`);
  const policy = options.policy ?? PUBLIC_ADDRESSES_ONLY;
  const resolve = options.resolve ?? systemLookup;
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(hostname) && policy.isForbidden(hostname)) throw new ForbiddenAddressError(hostname);
  const pinned = (host: string, lookupOptions: { all?: boolean }, callback: LookupCallback): void => {
    resolve(host).then(
      (found) => {
        if (found.length === 0) return callback(Object.assign(new Error(`no address for ${host}`), { code: 'ENOTFOUND' }), '');
        // One forbidden address is enough to refuse: the resolver could hand out either.
        if (found.some((entry) => policy.isForbidden(entry.address))) return callback(new ForbiddenAddressError(host), '');
        if (lookupOptions.all) return callback(null, found);
        callback(null, found[0]!.address, found[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<SafeResponse>((resolvePromise, reject) => {
    const req = send(url, {
      method: options.method,
      headers: { 'user-agent': 'ai-utility-hub-link-check/1', accept: '*/*', ...options.headers },
      lookup: pinned as never,
      signal: options.signal,
      agent: false,
    });
    req.once('socket', (socket: Socket) => {
      socket.once('connect', () => {
        const remote = socket.remoteAddress ?? '';
        if (policy.isForbidden(remote)) req.destroy(new ForbiddenAddressError(hostname));
      });
    });
    req.once('error', reject);
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      let received = 0;
      let truncated = false;
      const address = res.socket?.remoteAddress ?? '';
      const finish = () =>
        resolvePromise({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), truncated, address });
      res.on('data', (chunk: Buffer) => {
        if (truncated) return;
        const room = options.maxBodyBytes - received;
        if (chunk.length > room) {
          if (room > 0) chunks.push(chunk.subarray(0, room));
          received = options.maxBodyBytes;
          truncated = true;
          // Enough read: the rest is never downloaded.
          res.destroy();
          finish();
          return;
        }
        chunks.push(chunk);
        received += chunk.length;
      });
      res.once('end', finish);
      res.once('error', (error) => (truncated ? undefined : reject(error)));
    });
    req.end();
  });
}
