import { operationContext } from '../test/helpers/operation-context.js';
import { startFakeOpenAI } from '../test/fakes/openai-server.js';
import { measureHttp, percentile, postJson, report, startBareServer, startBenchService } from './lib.js';

/**
 * The service's own overhead around an LLM call: POST /api/v1/translate with a fake
 * OpenAI-compatible server answering at once (real `openai` SDK, real HTTP), beside two bare
 * node:http servers: one answering the same JSON, one that also makes the same call to the
 * fake LLM with fetch (the least any LLM-backed endpoint must do). The fake runs in this
 * process, as it does for the bare forwarder, so both carry its cost.
 */
export async function run(): Promise<void> {
  const llm = await startFakeOpenAI();
  const hub = await startBenchService({ OPENAI_BASE_URL: llm.url });
  const { base, apiKey, runtime } = hub;

  const text = '내일 오전 10시 회의는 3층 대회의실에서 진행합니다. 자료는 https://example.com/agenda 에 있어요.';
  const body = JSON.stringify({ text, target_lang: 'en' });
  const answer = JSON.stringify({
    success: true,
    translated: text,
    source_lang: 'ko',
    target_lang: 'en',
    api: 'translation',
    remaining: 1,
  });
  const options = { method: 'POST' as const, headers: { 'content-type': 'application/json', 'x-api-key': apiKey }, body };

  const bareJson = await startBareServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(answer);
    });
  });
  const bareForwarder = await startBareServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      const upstream = await fetch(`${llm.url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer x' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: text }] }),
      });
      const completion = (await upstream.json()) as { choices: Array<{ message: { content: string } }> };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: true, translated: completion.choices[0]?.message.content, source_lang: 'ko', target_lang: 'en' }));
    });
  });

  const check = await postJson(base, '/api/v1/translate', { text, target_lang: 'en' }, { 'x-api-key': apiKey });
  if (check.translated !== text) throw new Error(`translate bench: unexpected answer ${JSON.stringify(check)}`);

  const service = await measureHttp('service POST /api/v1/translate', `${base}/api/v1/translate`, options);
  const forwarder = await measureHttp('bare node:http + 1 LLM fetch', bareForwarder.url, options);
  const bare = await measureHttp('bare node:http JSON', bareJson.url, options);
  report(`Translation, fake LLM answering at once (${runtime.databaseKind}, 32 connections, 5 s)`, [service, forwarder], bare);
  console.log(`ratio service / bare+LLM fetch: ${(service.requestsPerSecond / forwarder.requestsPerSecond).toFixed(2)}`);
  console.log(`LLM calls the fake answered: ${llm.requestsTo('chat').length}`);

  // The operation alone (no HTTP door, no quota): detection, prompt, SDK call, checks.
  const ctx = operationContext({ id: 0 }, runtime.logger);
  const input = { text, source_lang: 'auto' as const, target_lang: 'en' as const };
  const inProcess = await timeLoop(() => runtime.operations.translation.run(ctx, input));
  const rawFetch = await timeLoop(async () => {
    const upstream = await fetch(`${llm.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer x' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: text }] }),
    });
    await upstream.json();
  });
  console.log(`translation operation in process, 1 at a time: p50 ${inProcess.p50} ms  p99 ${inProcess.p99} ms  ${inProcess.perSecond}/s`);
  console.log(`raw fetch to the fake LLM, 1 at a time:        p50 ${rawFetch.p50} ms  p99 ${rawFetch.p99} ms  ${rawFetch.perSecond}/s`);

  await bareJson.close();
  await bareForwarder.close();
  await hub.close();
  await llm.close();
}

/** Runs `call` one at a time for about two seconds; latency percentiles in ms. */
async function timeLoop(call: () => Promise<unknown>): Promise<{ p50: string; p99: string; perSecond: number }> {
  const times: number[] = [];
  const start = performance.now();
  while (performance.now() - start < 2_000) {
    const t = performance.now();
    await call();
    times.push(performance.now() - t);
  }
  const elapsed = (performance.now() - start) / 1000;
  return { p50: percentile(times, 50).toFixed(2), p99: percentile(times, 99).toFixed(2), perSecond: Math.round(times.length / elapsed) };
}
