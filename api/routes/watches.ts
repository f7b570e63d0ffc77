import { Router } from 'express';
import { AppError } from '../../src/errors.js';
import { watchIdSchema } from '../../src/operations/delivery-watch/watch.schema.js';
import type { Runtime } from '../../src/runtime.js';
import { parseInput } from '../../src/validation.js';
import { accountOf, authenticate } from '../middleware/auth.js';
import { runForRequest } from './operations.js';

/**
 * CONTRACT §5 watches: `POST /delivery/watch` (201, costs one `delivery-tracking` call; the
 * webhook secret is shown only here), `GET /delivery/watch` and `DELETE /delivery/watch/:id`
 * (free). `X-API-Key` or a login token; another account's watch is 404.
 */
export function watchRoutes(runtime: Runtime): Router {
  const router = Router();
  const auth = authenticate(runtime, 'either');

  router.post('/delivery/watch', auth, async (req, res) => {
    const { output, remaining } = await runForRequest(runtime, runtime.watchOperation, req, res);
    res.setHeader('Cache-Control', 'no-store');
    res.status(201).json({ success: true, watch: output.watch, webhook_secret: output.webhookSecret, remaining });
  });

  router.get('/delivery/watch', auth, async (req, res) => {
    res.json({ success: true, watches: await runtime.watches.list(accountOf(req).id) });
  });

  router.delete('/delivery/watch/:id', auth, async (req, res) => {
    const { id } = parseInput(watchIdSchema, req.params);
    const removed = await runtime.watches.remove(accountOf(req).id, { id });
    if (removed.length === 0) throw new AppError('NOT_FOUND', '해당 배송 알림을 찾을 수 없습니다.');
    res.json({ success: true, id });
  });

  return router;
}
