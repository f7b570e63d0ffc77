import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDoors } from '../api/app.js';
import { startTestApp, type TestApp, type TestUser } from './helpers/app.js';

/**
 * The HTTP contract (api/route.ts): the routes express and the operation door serve are exactly
 * the routes /openapi.json documents, and the documented error examples are what the code answers.
 */
type Doc = { paths: Record<string, Record<string, any>> };

/** Pages that are not API and so not in the document: the Swagger UI shell and its script. */
const PAGES = ['GET /docs', 'GET /docs/init.js'];

let app: TestApp;
let user: TestUser;
let doc: Doc;

beforeAll(async () => {
  app = await startTestApp();
  user = await app.signUp();
  doc = (await app.get('/openapi.json')).body;
});
afterAll(() => app?.close());

/** `METHOD path` of every route on the express app, routers walked recursively (middleware and static files are not routes). */
function expressRoutes(express: Express): string[] {
  const found: string[] = [];
  const walk = (stack: any[]) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const method of Object.keys(layer.route.methods).filter((name) => name !== '_all')) {
          // An escaped character of the express path (`/s/:code\\+`) is the character itself in the document.
          found.push(`${method.toUpperCase()} ${String(layer.route.path).replace(/\\(.)/g, '$1')}`);
        }
      } else if (Array.isArray(layer.handle?.stack)) walk(layer.handle.stack);
    }
  };
  walk((express as unknown as { router: { stack: any[] } }).router.stack);
  return found;
}

function documentedRoutes(): string[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
  );
}

/** The example of the documented error answer of a route at a status. */
function errorExample(method: string, path: string, status: number): any {
  const example = doc.paths[path]?.[method]?.responses[String(status)]?.content?.['application/json']?.example;
  expect(example, `${method.toUpperCase()} ${path} ${status} documented`).toBeDefined();
  return example;
}

async function send(method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${app.url}${path}`, {
    method: method.toUpperCase(),
    headers: {
      accept: 'application/json',
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    redirect: 'manual',
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

const concrete = (path: string) => path.replace('{id}', '2000000000').replace('{code}', 'zZ9zZ');

describe('the route table', () => {
  it('serves exactly the documented routes, and documents exactly the served ones', () => {
    const doors = createDoors(app.runtime);
    const served = [
      ...expressRoutes(doors.app).filter((route) => !PAGES.includes(route)),
      ...doors.operations.paths.map((path) => `POST ${path}`),
    ];
    expect([...served].sort()).toEqual([...documentedRoutes()].sort());
    // Every route of the document is declared once.
    expect(new Set(served).size).toBe(served.length);
  });
});

describe('documented error examples are what the code answers', () => {
  it('answers each route without credentials with its documented 401', async () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if ((operation.security ?? []).length === 0) continue;
        const body = operation.requestBody?.content?.['application/json']?.example;
        const res = await send(method, concrete(path), { body });
        expect(res, `${method.toUpperCase()} ${path}`).toEqual({ status: 401, body: errorExample(method, path, 401) });
      }
    }
  });

  it('answers each route with a body its documented 400 (the example with the named field removed or of the wrong type)', async () => {
    let checked = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const example = operation.requestBody?.content?.['application/json']?.example;
        if (!example) continue;
        const expected = errorExample(method, path, 400);
        const security: Array<Record<string, unknown>> = operation.security ?? [];
        const headers: Record<string, string> = security.some((entry) => 'apiKey' in entry)
          ? { 'x-api-key': user.apiKey }
          : security.some((entry) => 'bearer' in entry)
            ? { authorization: `Bearer ${user.token}` }
            : {};
        const answers = await Promise.all(
          [undefined, { wrong: 'type' }].map((value) =>
            send(method, concrete(path), { body: { ...example, [expected.field]: value }, headers }),
          ),
        );
        expect(answers, `${method.toUpperCase()} ${path}`).toContainEqual({ status: 400, body: expected });
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(13);
  });

  it('answers the cheap documented errors exactly as documented', async () => {
    const bearer = { authorization: `Bearer ${user.token}` };
    const key = { 'x-api-key': user.apiKey };
    const fresh = await app.signUp();
    /** POSTs the example body the document shows for `path`. */
    const postExample = (path: string, headers: Record<string, string>) =>
      send('post', path, { body: doc.paths[path]!.post.requestBody.content['application/json'].example, headers });
    const cases: Array<[method: string, path: string, status: number, request: () => ReturnType<typeof send>]> = [
      [
        'post',
        '/api/v1/auth/register',
        409,
        () => send('post', '/api/v1/auth/register', { body: { email: user.email, password: 'another password' } }),
      ],
      [
        'post',
        '/api/v1/auth/login',
        401,
        () => send('post', '/api/v1/auth/login', { body: { email: user.email, password: 'wrong password' } }),
      ],
      ['delete', '/api/v1/keys/{id}', 404, () => send('delete', '/api/v1/keys/2000000000', { headers: bearer })],
      ['delete', '/api/v1/delivery/watch/{id}', 404, () => send('delete', '/api/v1/delivery/watch/2000000000', { headers: key })],
      ['get', '/api/v1/url/shorten/{code}/stats', 404, () => send('get', '/api/v1/url/shorten/zZ9zZ/stats', { headers: key })],
      ['get', '/s/{code}', 404, () => send('get', '/s/zZ9zZ')],
      // Another account, subscribed to nothing: the documented 403 of each charged route it calls.
      ...(['/api/v1/delivery/track', '/api/v1/delivery/watch', '/api/v1/url/detect'] as const).map(
        (path) =>
          ['post', path, 403, () => postExample(path, { 'x-api-key': fresh.apiKey })] as [
            string,
            string,
            number,
            () => ReturnType<typeof send>,
          ],
      ),
      [
        'post',
        '/api/v1/auth/register',
        413,
        () => send('post', '/api/v1/auth/register', { body: { email: 'big@example.com', password: 'x'.repeat(1100 * 1024) } }),
      ],
      [
        'post',
        '/api/v1/ocr/idcard',
        413,
        () => send('post', '/api/v1/ocr/idcard', { body: { base64_image: 'A'.repeat(15 * 1024 * 1024 + 10) }, headers: key }),
      ],
      // No AI model is configured in this app: the AI operations answer their documented 503.
      ...(['/api/v1/tone/transform', '/api/v1/generate'] as const).map(
        (path) => ['post', path, 503, () => postExample(path, key)] as [string, string, number, () => ReturnType<typeof send>],
      ),
    ];
    for (const [method, path, status, request] of cases) {
      expect(await request(), `${method.toUpperCase()} ${path} ${status}`).toEqual({ status, body: errorExample(method, path, status) });
    }
  });
});
