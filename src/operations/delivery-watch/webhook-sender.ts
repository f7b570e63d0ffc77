import { createHmac } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { readCappedBody } from '../../net/capped-body.js';
import { isForbiddenAddress } from '../../net/address-policy.js';
import { pinnedLookup, type AddressLookup, type WebhookUrlPolicy } from './webhook-url.js';

/** What one delivery attempt came to: delivered, the target is gone (410), or try again later. */
export type SendOutcome = { ok: true } | { ok: false; gone: boolean; reason: string };

/**
 * Only the status of a receiver's answer matters. A short body is read so the connection can be
 * reused; past this many bytes (or past the timeout) the connection is dropped instead.
 */
export const WEBHOOK_ANSWER_LIMIT_BYTES = 16 * 1024;

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` (CONTRACT §5). */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const digest = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${digest}`;
}

export interface WebhookSenderOptions extends WebhookUrlPolicy {
  timeoutMs?: number;
  clock?: () => Date;
  resolve?: AddressLookup;
}

/**
 * Posts signed webhook bodies. Every attempt resolves the host again and refuses private
 * addresses (unless insecure targets are allowed); redirects are not followed, so a
 * target cannot bounce the request inward. 2xx is delivered, 410 ends the watch, anything
 * else (or no answer within the timeout) is retried by the poller with backoff.
 */
export function createWebhookSender(options: WebhookSenderOptions) {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const clock = options.clock ?? (() => new Date());
  const lookup = pinnedLookup(options, options.resolve);

  return {
    send(url: string, secret: string, body: string): Promise<SendOutcome> {
      const target = new URL(url);
      const host = target.hostname.replace(/^\[|\]$/g, '');
      if (!options.allowInsecure && (target.protocol !== 'https:' || (isIP(host) && isForbiddenAddress(host)))) {
        return Promise.resolve({ ok: false, gone: false, reason: 'refused_target' });
      }
      const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
      const headers = {
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'AI-Utility-Hub-Webhook/1',
        'x-signature': signatureHeader(secret, body, Math.floor(clock().getTime() / 1000)),
      };
      return new Promise<SendOutcome>((resolve) => {
        const req = request(target, { method: 'POST', headers, lookup: lookup as never, timeout: timeoutMs }, (res) => {
          drainBounded(res, timeoutMs);
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve({ ok: true });
          else resolve({ ok: false, gone: status === 410, reason: `http_${status}` });
        });
        req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
        req.on('error', (error: NodeJS.ErrnoException) => resolve({ ok: false, gone: false, reason: error.code ?? 'network_error' }));
        req.end(body);
      });
    },
  };
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;

/** Reads and discards an answer up to the cap and the deadline; an endless or trickling one is cut off. */
function drainBounded(res: IncomingMessage, timeoutMs: number): void {
  const deadline = setTimeout(() => res.destroy(), timeoutMs);
  deadline.unref();
  readCappedBody(res, WEBHOOK_ANSWER_LIMIT_BYTES)
    .catch(() => res.destroy())
    .finally(() => clearTimeout(deadline));
}
