import { validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeNts, type FakeNts } from './fakes/nts-server.js';
import { startFakeOpenAI, type FakeOpenAI } from './fakes/openai-server.js';
import { ev, startFakeTracker, type FakeTracker } from './fakes/tracker-server.js';
import { startWebhookReceiver, type FakeWebhookReceiver } from './fakes/webhook-receiver.js';
import { startTestApp, type TestApp, type TestUser } from './helpers/app.js';

/**
 * `/openapi.json` checked with a real OpenAPI validator (@readme/openapi-parser), then every
 * documented route called as the document says (its example body, its auth, path parameters
 * of real objects) and answered as documented: a documented status, and a body that validates
 * (ajv, JSON Schema 2020-12) against that status's schema.
 */
type Doc = { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, object> } };

let app: TestApp;
let llm: FakeOpenAI;
let tracker: FakeTracker;
let receiver: FakeWebhookReceiver;
let nts: FakeNts;
let user: TestUser;
let doc: Doc;

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
        if (bad && !Object.keys(properties).includes(String(bad.field))) problems.push(`${where}: 400 example names ${bad.field}`);
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
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ $id: 'doc', components: doc.components });
    const check = (path: string, method: string, status: number, body: unknown) => {
      const response = doc.paths[path]![method].responses[String(status)];
      expect(response, `${method.toUpperCase()} ${path} answered ${status}: ${JSON.stringify(body)}`).toBeDefined();
      const schema = response.content?.['application/json']?.schema;
      if (!schema) return;
      const validateBody = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')));
      expect(
        validateBody(body),
        `${method.toUpperCase()} ${path} ${status}: ${ajv.errorsText(validateBody.errors)}\n${JSON.stringify(body)}`,
      ).toBe(true);
    };

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
    const answered: string[] = [];
    for (const [template, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const content = operation.requestBody?.content?.['application/json'];
        let body = content?.example;
        if (template === '/api/v1/delivery/watch' && method === 'post') body = watchBody(body);
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
                : (params[name] ?? '1'),
        );
        const security: Array<Record<string, unknown>> = operation.security ?? [];
        const headers: Record<string, string> = {};
        if (security.some((entry) => 'apiKey' in entry)) headers['x-api-key'] = user.apiKey;
        else if (security.some((entry) => 'bearer' in entry)) headers.authorization = `Bearer ${user.token}`;
        // Logging out ends the session it names: a session of its own, so the later routes keep theirs.
        if (template === '/api/v1/operator/status') headers.authorization = `Bearer ${operatorToken}`;
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
      }
    }
    // Every route was called, and its documented example succeeded (the ID reader's example
    // image is a shortened placeholder: its documented 400 is the answer).
    expect(answered).toHaveLength(Object.values(doc.paths).reduce((sum, item) => sum + Object.keys(item).length, 0));
    const failed = answered.filter((line) => !/ [23]\d\d$/.test(line));
    expect(failed).toEqual(['POST /api/v1/ocr/idcard 400']);
  }, 120_000);
});
