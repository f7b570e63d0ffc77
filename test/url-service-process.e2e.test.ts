import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type ServiceProcess } from '../scripts/lib/service-process.js';
import { migratedDataDir } from './helpers/process.js';

/**
 * scripts/lib/service-process.ts, which `npm run eval:urls` (and the message evaluation) measure
 * the service through: `npm start` with the environment only, a registered key, real HTTP.
 */
describe('the evaluations’ service process (scripts/lib/service-process.ts)', () => {
  let dir: string;
  let service: ServiceProcess;

  beforeAll(async () => {
    dir = migratedDataDir('aih-service-');
    // No feeds to download here: the configured one is local and absent, the refresh off.
    service = await startService({
      DATA_DIR: dir,
      LOG_LEVEL: 'warn',
      URL_LIST_REFRESH: 'off',
      URL_EXPAND: 'off',
      URL_LIST_FEEDS: 'mine=phishing:domains:http://127.0.0.1:9/none.txt',
    });
  }, 180_000);

  afterAll(async () => {
    await service?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts npm start on a free port, signs up with a subscribed key, answers through the door, lists its learned models', async () => {
    expect(service.baseUrl).toBe(`http://127.0.0.1:${service.port}`);
    const { apiKey } = await service.signUp({ subscribe: ['harmful-url-detection'] });
    const detect = await service.post('/api/v1/url/detect', { url: 'http://vyosq.agdfv.com/' }, apiKey);
    expect(detect).toMatchObject({ status: 200, body: { success: true, is_malicious: true, category: 'phishing', source: 'rules' } });
    // Nothing downloaded yet: every URL model says it is not trained, none is left out; the
    // message model ships trained.
    const ready = await service.get('/healthz/ready');
    expect(ready.body).toEqual({
      status: 'ok',
      models: [
        ...['url-host-model', 'url-smishing-model', 'url-shorteners'].map((name) => ({
          name,
          trained: false,
          examples: 0,
          trained_at: null,
        })),
        { name: 'message-model', trained: true, examples: expect.any(Number), trained_at: expect.any(String) },
      ],
    });
    // The missing clean feed was said at start (CONTRACT §5).
    expect(service.output()).toContain('URL_LIST_FEEDS has no clean feed: the built-in clean reference (umbrella-top) is kept');
  });

  it('stops the whole process group, once', async () => {
    await service.stop();
    await service.stop();
    expect(service.child.exitCode !== null || service.child.signalCode !== null).toBe(true);
    await expect(service.get('/healthz/live')).rejects.toThrow();
  });
});
