import { Router } from 'express';
import { z } from 'zod';
import { API_IDS, CATALOG } from '../../src/platform/catalog.js';
import type { Runtime } from '../../src/runtime.js';
import { parseInput } from '../../src/validation.js';
import { accountOf, authenticate, bearerToken } from '../middleware/auth.js';
import { jsonBody } from '../middleware/body.js';

export const subscribeSchema = z.object({ api: z.enum(API_IDS) });
const keyIdSchema = z.object({ id: z.coerce.number().int().positive() });

/** CONTRACT §3: sign-up, log-in, keys, catalogue, subscriptions and usage. */
export function accountRoutes(runtime: Runtime): Router {
  const { accounts, apiKeys, subscriptions } = runtime.platform;
  const router = Router();
  const tokenOnly = authenticate(runtime, 'token');
  const keyOrToken = authenticate(runtime, 'either');

  router.post('/auth/register', jsonBody, async (req, res) => {
    const user = await accounts.register(req.body, { address: req.ip });
    res.status(201).json({ success: true, user });
  });

  router.post('/auth/login', jsonBody, async (req, res) => {
    const { token, expiresAt } = await accounts.login(req.body, { address: req.ip });
    res.json({ success: true, token, expires_at: expiresAt.toISOString() });
  });

  router.post('/auth/logout', tokenOnly, async (req, res) => {
    await accounts.logout(bearerToken(req) ?? '');
    res.json({ success: true });
  });

  router.post('/keys', tokenOnly, async (req, res) => {
    const { apiKey, key } = await apiKeys.create(accountOf(req), req.body);
    res.setHeader('Cache-Control', 'no-store');
    res.status(201).json({ success: true, api_key: apiKey, key });
  });

  router.get('/keys', tokenOnly, async (req, res) => {
    res.json({ success: true, keys: await apiKeys.list(accountOf(req)) });
  });

  router.delete('/keys/:id', tokenOnly, async (req, res) => {
    const { id } = parseInput(keyIdSchema, req.params);
    await apiKeys.revoke(accountOf(req), id);
    res.json({ success: true });
  });

  router.get('/catalog', (_req, res) => {
    res.json({
      success: true,
      apis: CATALOG.map((api) => ({
        id: api.id,
        name: api.name,
        path: api.path,
        category: api.category,
        category_en: api.categoryEn,
        status: 'normal',
        requires_subscription: api.requiresSubscription,
      })),
    });
  });

  router.post('/subscriptions', keyOrToken, async (req, res) => {
    const { api } = parseInput(subscribeSchema, req.body);
    res.status(201).json({ success: true, subscription: await subscriptions.subscribe(accountOf(req).id, api) });
  });

  router.get('/usage', keyOrToken, async (req, res) => {
    res.json({ success: true, usage: await subscriptions.usage(accountOf(req).id) });
  });

  return router;
}
