import { Router, type Request, type RequestHandler, type Response } from 'express';
import { AppError } from '../../src/errors.js';
import { CATALOG, type ApiId } from '../../src/platform/catalog.js';
import { executeOperation, type Operation } from '../../src/platform/execute.js';
import type { Runtime } from '../../src/runtime.js';
import { accountOf, authenticate } from '../middleware/auth.js';
import { setQuotaHeaders } from '../middleware/quota-headers.js';

function contextOf(req: Request, res: Response) {
  // A client that disconnects before the answer aborts the work (an image waiting for OCR).
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new AppError('INVALID_REQUEST', '요청이 취소되었습니다.'));
  });
  return { account: accountOf(req), logger: req.log, requestId: String(req.id), signal: controller.signal };
}

/** The whole door of one operation: authenticate, execute (validate, charge, run), answer. */
export function operationHandler(runtime: Runtime, operation: Operation): RequestHandler {
  return async (req, res) => {
    try {
      const { body, lease } = await executeOperation(runtime.platform.subscriptions, operation, contextOf(req, res), req.body);
      setQuotaHeaders(res, lease);
      res.json(body);
    } catch (error) {
      if (error instanceof AppError && error.code === 'QUOTA_EXCEEDED') {
        res.setHeader('RateLimit', `"monthly";r=0;t=${error.retryAfterSeconds ?? 0}`);
      }
      throw error;
    }
  };
}

/** POST routes of the eight operations, and the shortener's click statistics. */
export function operationRoutes(runtime: Runtime): Router {
  const router = Router();
  const requireKey = authenticate(runtime, 'key');
  const operations: Record<ApiId, Operation> = runtime.operations;
  for (const api of CATALOG) {
    router.post(api.path.replace('/api/v1', ''), requireKey, operationHandler(runtime, operations[api.id]));
  }

  router.get('/url/shorten/:code/stats', requireKey, async (req, res) => {
    res.json(await runtime.linkStats(accountOf(req), String(req.params.code)));
  });

  return router;
}
