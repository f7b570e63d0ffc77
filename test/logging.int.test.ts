import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, scrubSecrets } from '../src/logger.js';
import { startTestApp, type TestApp } from './helpers/app.js';

describe('scrubSecrets', () => {
  it('masks resident numbers, API keys, Slack tokens and bearer tokens in free text', () => {
    expect(scrubSecrets('주민번호 900101-1234567 입니다')).toBe('주민번호 900101-1****** 입니다');
    expect(scrubSecrets('9001011234567')).toBe('900101-1******');
    expect(scrubSecrets('key aik_AbCdEfGh1234567890')).toBe('key aik_[REDACTED]');
    expect(scrubSecrets('xoxb-1234-5678-abcdef')).toBe('xoxb-[REDACTED]');
    expect(scrubSecrets('Authorization: Bearer abcdefghijkl.mnop')).toBe('Authorization: Bearer [REDACTED]');
    expect(scrubSecrets('order 2024-1234567 and phone 010-1234-5678')).toBe('order 2024-1234567 and phone 010-1234-5678');
  });
});

describe('request logs', () => {
  const lines: string[] = [];
  let app: TestApp;
  beforeAll(async () => {
    const logger = createLogger('debug', { write: (line: string) => void lines.push(line) });
    app = await startTestApp({}, { logger });
  });
  afterAll(() => app.close());

  it('log one line per request with its id, and never keys, tokens, passwords or bodies', async () => {
    const user = await app.signUp();
    await app.post('/api/v1/url/shorten', { url: 'https://example.com/?rrn=900101-1234567' }, user.apiKey);
    await app.post('/api/v1/url/shorten', { url: 'https://example.com' }, 'aik_wrongwrongwrongwrongwrongwrongwr');
    const all = lines.join('\n');
    expect(all).toContain('"path":"/api/v1/url/shorten"');
    expect(all).toMatch(/"statusCode":401/);
    for (const secret of [user.apiKey, user.token, user.password, '1234567', 'aik_wrong', 'example.com']) {
      expect(all).not.toContain(secret);
    }
  });
});
