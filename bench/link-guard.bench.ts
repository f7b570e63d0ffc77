import { SYSTEM } from '../src/platform/audit-log.js';
import type { GuardResponder } from '../src/operations/link-guard/link-guard.js';
import { measureHttp, postJson, report, signUp, startBenchService } from './lib.js';

/**
 * Issue 40's flood: 500 messages with a new link each, submitted to the link guard of one
 * workspace within the measurement window (about 100 a second), while another account's
 * `/url/detect` runs at 32 connections. Beside it the same `/url/detect` load without the flood.
 * The target: the other tenant's p99 stays under 50 ms. Printed, not asserted.
 */
export async function run(): Promise<void> {
  const service = await startBenchService();
  const { base, runtime } = service;
  await postJson(base, '/api/v1/subscriptions', { api: 'harmful-url-detection' }, { 'x-api-key': service.apiKey });
  const guardKey = await signUp(base);
  await postJson(base, '/api/v1/subscriptions', { api: 'harmful-url-detection' }, { 'x-api-key': guardKey });
  const owner = (await runtime.platform.apiKeys.authenticate(guardKey))!;
  const ref = { platform: 'slack' as const, workspaceId: 'TBENCH', channelId: 'CBENCH' };
  await runtime.platform.workspaceLinks.link(ref, { accountId: owner.id, keyId: owner.keyId, keyPrefix: owner.keyPrefix }, SYSTEM);
  await runtime.linkGuard.enable(ref, { locale: 'ko' }, SYSTEM);
  let warned = 0;
  const responder: GuardResponder = {
    warn: async () => ((warned += 1), 'warned'),
    quotaNotice: async () => undefined,
  };

  const detect = {
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', 'x-api-key': service.apiKey },
    body: JSON.stringify({ url: 'https://shop-[<id>].example.com/item' }),
    uniqueIds: true,
  };
  const quiet = await measureHttp('other tenant /url/detect, no flood', `${base}/api/v1/url/detect`, detect);

  const outcomes = { queued: 0, dropped: 0, other: 0 };
  let sent = 0;
  const flood = setInterval(() => {
    for (let i = 0; i < 10 && sent < 500; i++, sent++) {
      void runtime.linkGuard
        .submit({ ...ref, messageId: `m${sent}`, posterId: 'U1', parts: [`이벤트 당첨 https://casino-${sent}.xyz/event 확인`] }, responder)
        .then((result) => (result === 'queued' || result === 'dropped' ? (outcomes[result] += 1) : (outcomes.other += 1)));
    }
  }, 100);
  const flooded = await measureHttp('other tenant /url/detect, during the flood', `${base}/api/v1/url/detect`, detect);
  clearInterval(flood);
  await runtime.linkGuard.idle();
  report('Another tenant while one workspace floods the link guard (500 links, 32 connections, 5 s)', [flooded], quiet);
  console.log(
    `flood: ${sent} messages sent, ${outcomes.queued} queued, ${outcomes.dropped} dropped, ${warned} warned; other tenant p99 ${flooded.p99Ms} ms (target < 50 ms, ${quiet.p99Ms} ms without the flood)`,
  );
  await service.close();
}
