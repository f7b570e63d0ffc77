import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

it('shortens', async () => {
  const user = await app.signUp();
  const res = await app.post('/api/v1/url/shorten', { url: 'https://example.com' }, user.apiKey);
  expect(res.status).toBe(200);
});
