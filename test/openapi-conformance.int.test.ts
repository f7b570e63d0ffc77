import { validate } from '@readme/openapi-parser';
import { gzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptions } from '../db/schema.js';
import { startFakeNts, type FakeNts } from './fakes/nts-server.js';
import { startFakeOpenAI, type FakeOpenAI } from './fakes/openai-server.js';
import { ev, startFakeTracker, type FakeTracker } from './fakes/tracker-server.js';
import { startWebhookReceiver, type FakeWebhookReceiver } from './fakes/webhook-receiver.js';
import { startTestApp, type TestApp, type TestUser } from './helpers/app.js';
import { answerChecker, callRoute, documentedOperations, type OpenApiDoc } from './helpers/openapi-answers.js';

/**
 * `/openapi.json` checked with a real OpenAPI validator (@readme/openapi-parser), then every
 * documented route called as the document says (its example body, its auth, path parameters
 * of real objects) and answered as documented: a documented status, and a body that validates
 * (ajv, JSON Schema 2020-12) against that status's schema; then the usual errors of every
 * operation (400, 401, 403, 404, 409, 413, 422, 429 where they apply), held against it the same way.
 */

let app: TestApp;
let llm: FakeOpenAI;
let tracker: FakeTracker;
let receiver: FakeWebhookReceiver;
let nts: FakeNts;
let user: TestUser;
let doc: OpenApiDoc;

/** `GET /metrics` is served with this bearer token (docs/operating.md). */
const METRICS_TOKEN = 'conformance-metrics-token-0123';
/** The operator (ADMIN_EMAILS) whose token asks the operator route. */
const OPERATOR = { email: 'conformance-operator@example.com', password: 'operator password' };

beforeAll(async () => {
  llm = await startFakeOpenAI();
  tracker = await startFakeTracker();
  receiver = await startWebhookReceiver();
  nts = await startFakeNts();
  // The business routes' examples name this one.
  nts.business({ b_no: '1248100998', state: '01', start_dt: '19690113', p_nm: '홍길동', b_nm: '주식회사 예시' });
  app = await startTestApp(
    {
      OPENAI_BASE_URL: llm.url,
      LLM_TIMEOUT_MS: '2000',
      DELIVERY_TRACKER_URL: tracker.url,
      WEBHOOK_ALLOW_INSECURE: '1',
      DATA_GO_KR_SERVICE_KEY: nts.serviceKey,
      DATA_GO_KR_API_URL: nts.url,
      ADMIN_EMAILS: OPERATOR.email,
      METRICS_TOKEN: METRICS_TOKEN,
    },
    { llm: { retryBaseDelayMs: 1 } },
  );
  user = await app.signUp();
  doc = (await app.get('/openapi.json')).body;
});
afterAll(async () => {
  await app?.close();
  await Promise.all([llm?.close(), tracker?.close(), receiver?.close(), nts?.close()]);
});

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, JSON.stringify((result as { errors?: unknown }).errors)).toBe(true);
  });

  it('gives every success a response schema, every 400 example its own field, and text fields a maxLength', () => {
    const problems: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        // The redirect's success is its 302 (the old document showed a 200 warning page the code never sent).
        const success = Object.entries(operation.responses as Record<string, any>).find(([status]) => /^[23]/.test(status));
        if (!success) problems.push(`${where}: no 2xx or 3xx`);
        else if (success[1].content?.['application/json'] && !success[1].content['application/json'].schema)
          problems.push(`${where} ${success[0]}: no schema`);
        const content = operation.requestBody?.content?.['application/json'];
        const properties =
          content?.schema?.properties ??
          Object.assign({}, ...(content?.schema?.anyOf ?? content?.schema?.oneOf ?? []).map((branch: any) => branch.properties ?? {}));
        const bad = operation.responses['400']?.content?.['application/json']?.example;
        if (content && !bad) problems.push(`${where}: no 400 example`);
        const fields = content ? Object.keys(properties) : (operation.parameters ?? []).map((parameter: any) => parameter.name);
        if (bad && !fields.includes(String(bad.field))) problems.push(`${where}: 400 example names ${bad.field}`);
        if (bad && !String(bad.error).includes(`'${bad.field}'`)) problems.push(`${where}: 400 message does not name ${bad.field}`);
        for (const [name, schema] of Object.entries(properties as Record<string, any>)) {
          const strings = [schema, ...(schema.anyOf ?? [])].filter(
            (branch: any) => branch.type === 'string' && !branch.enum && !branch.format,
          );
          if (strings.some((branch: any) => !(branch.maxLength > 0))) problems.push(`${where} ${name}: no maxLength`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('every documented route answers as documented', () => {
  it('answers each route with a documented status and a body that fits its schema', async () => {
    const check = answerChecker(doc);

    // Real objects for the path parameters, and what the upstream fakes answer.
    await app.post('/api/v1/subscriptions', { api: 'delivery-tracking' }, user.apiKey);
    await app.post('/api/v1/subscriptions', { api: 'harmful-url-detection' }, user.apiKey);
    const shortened = await app.post('/api/v1/url/shorten', { url: 'https://www.example.com/conformance' }, user.apiKey);
    const spare = await fetch(`${app.url}/api/v1/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'spare' }),
    }).then((res) => res.json() as Promise<any>);
    // A key of its own for the key's own routes (renamed, rotated), apart from the one revoked.
    const kept = await fetch(`${app.url}/api/v1/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'kept' }),
    }).then((res) => res.json() as Promise<any>);
    await app.post('/api/v1/auth/register', OPERATOR);
    const operatorToken = (await app.post('/api/v1/auth/login', OPERATOR)).body.token as string;
    const watchBody = (example: any) => ({ ...example, webhook_url: receiver.url });
    const params: Record<string, string> = { code: shortened.body.code, id: String(spare.key.id) };

    await app.runtime.knowledgeFeedback.add(user.accountId, '연차는 언제 쓰나요?', null);
    const [feedback] = await app.runtime.knowledgeFeedback.list(user.accountId);

    let watchId: string | undefined;
    // The team's routes: an invitation of a unique e-mail, taken by `join`, whose member is then changed and removed.
    let inviteToken: string | undefined;
    let joinedId: string | undefined;
    const invitee = `conformance-${process.pid}-${Date.now()}@example.com`;
    const answered: string[] = [];
    for (const [template, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const content = operation.requestBody?.content?.['application/json'];
        let body = content?.example;
        if (template === '/api/v1/delivery/watch' && method === 'post') body = watchBody(body);
        if (template === '/api/v1/team/invites') body = { ...body, email: invitee };
        if (template === '/api/v1/team/join') body = { ...body, token: inviteToken };
        // The same password again: the later routes log in with it.
        if (template === '/api/v1/auth/password') body = { current_password: user.password, new_password: user.password };
        if (body?.track_id)
          tracker.parcel(body.carrier_id ?? 'kr.cjlogistics', String(body.track_id).replace(/\D/g, ''), {
            events: [ev('2026-11-20T09:00:00+09:00', 'AT_PICKUP', '집화처리')],
          });
        if (template === '/api/v1/tone/transform') llm.chat({ content: '내일 회의를 3시로 옮겼습니다.' });
        const path = template.replace(/\{(\w+)\}/g, (_whole, name: string) =>
          template.startsWith('/api/v1/delivery/watch/') && watchId
            ? watchId
            : template.startsWith('/api/v1/chatbot/feedback/')
              ? String(feedback!.id)
              : template.startsWith('/api/v1/keys/{id}') && method !== 'delete'
                ? String(kept.key.id)
                : template.startsWith('/api/v1/team/members/')
                  ? joinedId!
                  : (params[name] ?? '1'),
        );
        const security: Array<Record<string, unknown>> = operation.security ?? [];
        const headers: Record<string, string> = {};
        if (security.some((entry) => 'apiKey' in entry)) headers['x-api-key'] = user.apiKey;
        else if (security.some((entry) => 'bearer' in entry)) headers.authorization = `Bearer ${user.token}`;
        // Logging out ends the session it names: a session of its own, so the later routes keep theirs.
        if (template === '/api/v1/operator/status') headers.authorization = `Bearer ${operatorToken}`;
        if (template === '/metrics') headers.authorization = `Bearer ${METRICS_TOKEN}`;
        if (template === '/api/v1/auth/logout') {
          const login = await app.post('/api/v1/auth/login', { email: user.email, password: user.password });
          headers.authorization = `Bearer ${login.body.token}`;
        }
        if (body !== undefined) headers['content-type'] = 'application/json';
        const res = await fetch(`${app.url}${path}`, {
          method: method.toUpperCase(),
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          redirect: 'manual',
        });
        const text = await res.text();
        const parsed = res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
        check(template, method, res.status, parsed);
        answered.push(`${method.toUpperCase()} ${template} ${res.status}`);
        if (template === '/api/v1/delivery/watch' && method === 'post' && res.status === 201) watchId = String(parsed.watch.id);
        if (template === '/api/v1/team/invites' && res.status === 201) inviteToken = new URL(parsed.invite_url).hash.replace('#join=', '');
        if (template === '/api/v1/team/join' && res.status === 201)
          joinedId = String((await app.runtime.platform.team.members(user.accountId)).find((member) => member.email === invitee)!.id);
      }
    }
    // Every route was called, and its documented example succeeded (the ID reader's example
    // image is a shortened placeholder: its documented 400 is the answer).
    expect(answered).toHaveLength(Object.values(doc.paths).reduce((sum, item) => sum + Object.keys(item).length, 0));
    const failed = answered.filter((line) => !/ [23]\d\d$/.test(line));
    expect(failed).toEqual(['POST /api/v1/ocr/idcard 400']);
  }, 120_000);
});

describe('every operation answers its usual errors as documented', () => {
  it('answers 400, 401, 403, 404, 409, 413, 422 and 429 in the documented shape', async () => {
    const check = answerChecker(doc);
    const [unsubscribed, exhausted] = [await app.signUp(), await app.signUp()];
    await app.runtime.db.delete(subscriptions).where(eq(subscriptions.accountId, unsubscribed.accountId));
    for (const api of ['delivery-tracking', 'harmful-url-detection']) await app.post('/api/v1/subscriptions', { api }, exhausted.apiKey);
    await app.runtime.db.update(subscriptions).set({ remaining: 0 }).where(eq(subscriptions.accountId, exhausted.accountId));
    for (const api of ['delivery-tracking', 'harmful-url-detection']) await app.post('/api/v1/subscriptions', { api }, user.apiKey);

    // A body that inflates past every route's limit (15 MB at most), sent gzip'd: the limit counts inflated bytes.
    const oversized = gzipSync(JSON.stringify({ text: ' '.repeat(16 * 1024 * 1024) }));
    const keyOf = (who: TestUser, operation: any): Record<string, string> => {
      const security: Array<Record<string, unknown>> = operation.security ?? [];
      if (security.some((entry) => 'apiKey' in entry)) return { 'x-api-key': who.apiKey };
      return security.some((entry) => 'bearer' in entry) ? { authorization: `Bearer ${who.token}` } : {};
    };
    const json = { 'content-type': 'application/json' };
    // Path parameters naming nothing that exists: an id no row has, a code no link has.
    const missing = (template: string) => template.replace(/\{(\w+)\}/g, (_whole, name: string) => (name === 'code' ? 'ZzZz9' : '999999'));
    type Case = {
      template: string;
      method: string;
      status: number;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Uint8Array;
    };
    const cases: Case[] = [];
    for (const [template, method, operation] of documentedOperations(doc)) {
      const statuses = Object.keys(operation.responses);
      const example = operation.requestBody?.content?.['application/json']?.example;
      const exampleBody =
        example === undefined
          ? undefined
          : JSON.stringify(template === '/api/v1/delivery/watch' ? { ...example, webhook_url: receiver.url } : example);
      const own = { ...keyOf(user, operation), ...(exampleBody ? json : {}) };
      const path = missing(template);
      const existing = path === template;
      if ((operation.security ?? []).length > 0)
        cases.push({ template, method, status: 401, path, headers: exampleBody ? json : {}, body: exampleBody });
      if (operation.requestBody) {
        cases.push({ template, method, status: 400, headers: own, body: '{"broken": ' });
        cases.push({ template, method, status: 413, headers: { ...own, 'content-encoding': 'gzip' }, body: oversized });
      } else if (statuses.includes('400')) {
        // The parameter the documented 400 names, given a value it does not take.
        const field = operation.responses['400'].content['application/json'].example.field;
        const where = operation.parameters.find((parameter: any) => parameter.name === field).in;
        const bad = where === 'path' ? template.replace(`{${field}}`, 'x') : `${path}?${field}=x`;
        cases.push({ template, method, status: 400, path: bad, headers: own });
      }
      if (statuses.includes('404') && !existing) cases.push({ template, method, status: 404, path, headers: own, body: exampleBody });
      const errorCode = (status: string) => operation.responses[status]?.content?.['application/json']?.example?.error_code;
      if (errorCode('403') === 'SUBSCRIPTION_REQUIRED')
        cases.push({ template, method, status: 403, headers: { ...own, ...keyOf(unsubscribed, operation) }, body: exampleBody });
      if (errorCode('429') === 'QUOTA_EXCEEDED')
        cases.push({ template, method, status: 429, headers: { ...own, ...keyOf(exhausted, operation) }, body: exampleBody });
    }
    const keyed = { ...json, 'x-api-key': user.apiKey };
    cases.push(
      {
        template: '/api/v1/auth/login',
        method: 'post',
        status: 401,
        headers: json,
        body: JSON.stringify({ email: user.email, password: 'wrong password' }),
      },
      {
        template: '/api/v1/auth/register',
        method: 'post',
        status: 409,
        headers: json,
        body: JSON.stringify({ email: user.email, password: 'another password' }),
      },
      { template: '/api/v1/operator/status', method: 'get', status: 403, headers: { authorization: `Bearer ${user.token}` } },
      // The carrier does not know this parcel (the fake answers NOT_FOUND for a number it was not given).
      {
        template: '/api/v1/delivery/track',
        method: 'post',
        status: 404,
        headers: keyed,
        body: JSON.stringify({ carrier_id: 'kr.cjlogistics', track_id: '999999999999' }),
      },
      {
        template: '/api/v1/url/shorten',
        method: 'post',
        status: 422,
        headers: keyed,
        body: JSON.stringify({ url: 'http://toto-mukti77.xyz/event', check_harmful: true }),
      },
    );

    const answered = new Map<string, Set<number>>();
    for (const { template, method, status, path = template, headers, body } of cases) {
      const res = await callRoute(app.url, method, path, { headers, body });
      check(template, method, res.status, res.body);
      expect(res.status, `${method.toUpperCase()} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
      const where = `${method.toUpperCase()} ${template}`;
      answered.set(where, (answered.get(where) ?? new Set()).add(status));
    }
    // Log-in throttling: past the failures one account may have, the next attempt is a 429.
    for (let attempt = 0; ; attempt++) {
      const res = await callRoute(app.url, 'post', '/api/v1/auth/login', {
        headers: json,
        body: JSON.stringify({ email: exhausted.email, password: 'wrong password' }),
      });
      check('/api/v1/auth/login', 'post', res.status, res.body);
      if (res.status === 429) break;
      expect(attempt, 'no 429 after 20 failed log-ins').toBeLessThan(20);
    }
    // Every operation that takes a key, a body or a parameter answered one of its 4xx above.
    const untried = documentedOperations(doc)
      .filter(
        ([, , operation]) => (operation.security ?? []).length > 0 || operation.requestBody || (operation.parameters ?? []).length > 0,
      )
      .map(([template, method]) => `${method.toUpperCase()} ${template}`)
      .filter((where) => ![...(answered.get(where) ?? [])].some((status) => status >= 400 && status < 500));
    expect(untried).toEqual([]);
    expect(new Set([...answered.values()].flatMap((statuses) => [...statuses]))).toEqual(new Set([400, 401, 403, 404, 409, 413, 422, 429]));
  }, 180_000);
});
