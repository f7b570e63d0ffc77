import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, logDestination, requestLineWriter, scrubSecrets } from '../src/logger.js';
import { startTestApp, type TestApp } from './helpers/app.js';

describe('scrubSecrets', () => {
  it('masks resident numbers, API keys, Slack tokens and bearer tokens in free text', () => {
    expect(scrubSecrets('주민번호 900101-1234567 입니다')).toBe('주민번호 900101-1****** 입니다');
    expect(scrubSecrets('9001011234567')).toBe('900101-1******');
    expect(scrubSecrets('key aik_AbCdEfGh1234567890')).toBe('key aik_[REDACTED]');
    expect(scrubSecrets('xoxb-1234-5678-abcdef')).toBe('xoxb-[REDACTED]');
    expect(scrubSecrets('Authorization: Bearer abcdefghijkl.mnop')).toBe('Authorization: Bearer [REDACTED]');
    expect(scrubSecrets('order 2024-1234567 and phone 010-1234-5678')).toBe('order 2024-1234567 and phone 010-1234-5678');
    const requestId = '"id":"12345678-1234-4234-9234-123456789012"';
    expect(scrubSecrets(requestId)).toBe(requestId);
  });
});

describe('log lines', () => {
  it('carry the time of their own millisecond', async () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
    const before = Date.now();
    logger.info('first');
    await new Promise((resolve) => setTimeout(resolve, 5));
    logger.info('second');
    const [first, second] = lines.map((line) => Date.parse((JSON.parse(line) as { time: string }).time));
    expect(first).toBeGreaterThanOrEqual(before);
    expect(second! - first!).toBeGreaterThanOrEqual(4);
  });
});

describe('the request line written by hand', () => {
  it('is the line pino writes for the same fields, scrubbed the same way, and follows the level', () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
    const child = logger.child({ worker: 2 });
    for (const id of ['1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed', 'say "hi"\u2028', 'aik_AbCdEfGh1234567890', '900101-1234567']) {
      const req = { id, method: 'POST', path: '/api/v1/url/detect' };
      for (const target of [logger, child]) {
        target.info({ req, res: { statusCode: 201 }, responseTime: 7 }, 'request completed');
        requestLineWriter(target)(req, 201, 7);
      }
    }
    const withoutTime = lines.map((line) => line.replace(/"time":"[^"]*"/, ''));
    for (let i = 0; i < withoutTime.length; i += 2) expect(withoutTime[i + 1]).toBe(withoutTime[i]);
    expect(lines.join('')).not.toMatch(/aik_AbCd|1234567/);
    expect(JSON.parse(lines[3]!)).toMatchObject({ level: 30, service: 'ai-utility-hub', worker: 2, req: { path: '/api/v1/url/detect' } });

    logger.level = 'warn';
    requestLineWriter(logger)({ id: 'x', method: 'POST', path: '/' }, 200, 1);
    expect(lines).toHaveLength(16);
  });
});

describe('the log destination', () => {
  it('writes lines in blocks of 4 KiB, the rest within a quarter second and on flush', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aih-log-'));
    const file = join(dir, 'out.log');
    writeFileSync(file, '');
    const logger = createLogger('info', logDestination(file));
    const written = () => readFileSync(file, 'utf8').split('\n').filter(Boolean).length;
    logger.info('first');
    expect(written()).toBe(0);
    for (let i = 0; i < 60; i++) logger.info({ i, padding: 'x'.repeat(40) }, 'more');
    const inBlocks = written();
    expect(inBlocks).toBeGreaterThan(0);
    expect(inBlocks).toBeLessThan(61);
    // The block goes out on a timer: wait for it (up to the test's timeout, not a guess of 3 s).
    for (let polls = 0; written() < 61 && polls < 600; polls++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(written()).toBe(61);
    logger.info('last');
    logger.flush();
    expect(written()).toBe(62);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('structured secrets', () => {
  it('are censored at the top level, one level down and in child bindings, headers by path; what was logged is left as it was', () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
    const hook = { url: 'https://hooks.example.kr/a', webhook_secret: 'hook-secret-1' };
    logger.info({ password: 'pw-top', hook, account: { apiKey: 'aik_nested', id: 7 } }, 'saved');
    logger
      .child({ session: { token: 'child-token' } })
      .child({ password: 'grandchild-pw' })
      .info({ upload: { base64_image: 'iVBORw0KGgo' } }, 'read');
    logger.info({ req: { headers: { authorization: 'Bearer abc', 'x-api-key': 'k-1', accept: 'json' } } }, 'request');
    const all = lines.join('\n');
    for (const secret of ['pw-top', 'hook-secret-1', 'aik_nested', 'child-token', 'grandchild-pw', 'iVBORw0KGgo', 'Bearer abc', 'k-1']) {
      expect(all).not.toContain(secret);
    }
    expect(JSON.parse(lines[0]!)).toMatchObject({
      password: '[REDACTED]',
      hook: { url: hook.url, webhook_secret: '[REDACTED]' },
      account: { id: 7 },
    });
    expect(JSON.parse(lines[2]!).req.headers).toEqual({ authorization: '[REDACTED]', 'x-api-key': '[REDACTED]', accept: 'json' });
    expect(hook.webhook_secret).toBe('hook-secret-1');
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

describe('failed queries in the log', () => {
  it('keep the SQL but never the values a query was run with', async () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
    const cause = Object.assign(new Error('invalid byte sequence'), { parameters: ['secret-param-3'] });
    const failed = Object.assign(
      new Error('Failed query: insert into "knowledge" ("content") values ($1, $2)\nparams: 사내 기밀 문서,hook-secret-2'),
      { query: 'insert into "knowledge" ("content") values ($1, $2)', params: ['사내 기밀 문서', 'hook-secret-2'], cause },
    );
    logger.error({ err: failed }, 'query failed');
    logger.warn({ error: failed }, 'query failed again');
    // A message quoted as free text by other code is scrubbed too.
    logger.warn(`wrapped: ${failed.message}`);
    const all = lines.join('\n');
    expect(all).toContain('insert into');
    for (const value of ['사내 기밀 문서', 'hook-secret-2', 'secret-param-3']) expect(all).not.toContain(value);
  });
});

describe('NUL characters in input', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('are a 400 naming the field, never a failed query', async () => {
    const user = await app.signUp();
    const key = await app.post('/api/v1/keys', { name: 'a\u0000b' }, undefined);
    expect(key.status).toBe(401);
    const res = await fetch(`${app.url}/api/v1/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'a\u0000b' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 400, error_code: 'INVALID_REQUEST', field: 'name' });

    const added = await app.post('/api/v1/chatbot/rag', { action: 'add', content: '휴가 규정\u0000입니다' }, user.apiKey);
    expect(added.status).toBe(400);
    expect(added.body).toMatchObject({ field: 'content' });
    expect(added.body.error).toContain('널 문자');
    expect(await app.remaining(user.apiKey, 'chatbot-rag')).toBe(1000);
  });
});
