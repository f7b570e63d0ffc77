import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import { AppError } from '../../src/errors.js';
import { CATALOG, type ApiId } from '../../src/platform/catalog.js';
import { executeOperation, type Caller, type Operation } from '../../src/platform/execute.js';
import type { Runtime } from '../../src/runtime.js';
import { accountOf, authenticate } from '../middleware/auth.js';
import { setQuotaHeaders } from '../middleware/quota-headers.js';

export function callerOf(req: Request, res?: Response): Caller {
  const caller: Caller = { account: accountOf(req), logger: req.log, requestId: String(req.id) };
  if (!res) return caller;
  // A client that disconnects before the answer aborts the work (an image waiting for OCR).
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new AppError('INVALID_REQUEST', '요청이 취소되었습니다.'));
  });
  return { ...caller, signal: controller.signal };
}

/**
 * Runs an operation for the request (validate, charge, run, refund on failure), sets the
 * quota headers and returns its output with the HTTP envelope's `remaining`.
 */
export async function runForRequest<Schema extends z.ZodType, Output extends object>(
  runtime: Runtime,
  operation: Operation<Schema, Output>,
  req: Request,
  res: Response,
): Promise<{ output: Output; remaining: number }> {
  const { output, quota } = await executeOperation(runtime.platform.subscriptions, operation, callerOf(req, res), req.body);
  setQuotaHeaders(res, quota, runtime.clock());
  return { output, remaining: quota.remaining };
}

/** The whole door of one operation: authenticate, execute, answer `{success, …output, api, remaining}`. */
export function operationHandler(runtime: Runtime, operation: Operation): RequestHandler {
  return async (req, res) => {
    const { output, remaining } = await runForRequest(runtime, operation, req, res);
    res.json({ success: true, ...output, api: operation.api, remaining });
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
    res.json({ success: true, ...(await runtime.linkStats(accountOf(req), String(req.params.code))) });
  });

  return router;
}
