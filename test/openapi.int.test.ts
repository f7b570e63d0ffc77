import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG } from '../src/operations/catalog.js';
import { MODULES } from '../src/operations/modules.js';
import type { ApiId } from '../src/platform/catalog.js';
import type { Operation } from '../src/platform/execute.js';
import { startTestApp, type TestApp } from './helpers/app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('GET /openapi.json', () => {
  it('documents every operation with the request schema the route validates with', async () => {
    const res = await app.get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    for (const api of CATALOG) {
      const post = res.body.paths[api.path]?.post;
      expect(post, api.path).toBeDefined();
      expect(post.security).toEqual([{ apiKey: [] }]);
      for (const status of ['200', '400', '401', '429']) expect(Object.keys(post.responses)).toContain(status);
      const content = post.requestBody.content['application/json'];
      expect(content.schema.type, api.id).toBe('object');
      expect(Object.keys(content.schema.properties ?? {}).length, api.id).toBeGreaterThan(0);
    }
    expect(res.body.paths['/api/v1/url/shorten'].post.requestBody.content['application/json'].schema).toMatchObject({
      properties: { url: { type: 'string', maxLength: 2048 }, check_harmful: { type: 'boolean' } },
      required: ['url'],
    });
    expect(res.body.paths['/api/v1/url/shorten'].post.responses['422'].content['application/json'].example).toMatchObject({
      success: false,
      code: 422,
      is_malicious: true,
    });
    expect(res.body.paths['/api/v1/delivery/watch'].post.requestBody.content['application/json'].schema.required).toEqual([
      'carrier_id',
      'track_id',
    ]);
    expect(res.body.paths['/api/v1/auth/register'].post.requestBody.content['application/json'].schema.required).toEqual([
      'email',
      'password',
    ]);
    // Issue 39: files, pages, bulk entries and scopes are documented on the chatbot's request.
    const chatbot = res.body.paths['/api/v1/chatbot/rag'].post.requestBody.content['application/json'].schema;
    expect(Object.keys(chatbot.properties)).toEqual(expect.arrayContaining(['file', 'url', 'entries', 'scope', 'source', 'source_url']));
    expect(chatbot.properties.entries).toMatchObject({ type: 'array', maxItems: 100 });
    expect(chatbot.properties.file).toMatchObject({ type: 'object', properties: { name: { type: 'string' }, base64: { type: 'string' } } });
    expect(res.body.paths['/api/v1/chatbot/feedback'].get.security).toEqual(expect.arrayContaining([{ apiKey: [] }]));
  });

  it('shows request and answer examples that the real schemas accept', () => {
    const operations: Record<ApiId, Operation> = app.runtime.operations;
    for (const { catalog, example, output } of MODULES) {
      const request = operations[catalog.id].schema.safeParse(example.request);
      expect(request.success, `${catalog.id}: ${JSON.stringify(request.error?.issues)}`).toBe(true);
      const answer = output.safeParse(example.response);
      expect(answer.success, `${catalog.id}: ${JSON.stringify(answer.error?.issues)}`).toBe(true);
    }
  });
});
