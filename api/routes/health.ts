import { Router, type Response } from 'express';
import type { Runtime } from '../../src/runtime.js';
import type { AppState } from '../app.js';

const PING_TIMEOUT_MS = 2000;

/**
 * Health for load balancers: `/healthz/live` (the process answers: restart it only when this
 * fails) and `/healthz/ready` = `/healthz` (send traffic: 200 `{"status":"ok"}` when the
 * database answers and the server is not draining, else 503 with the reason).
 */
export function healthRoutes(runtime: Runtime, state: AppState): Router {
  const router = Router();

  router.get('/healthz/live', (_req, res) => {
    res.json({ status: 'ok' });
  });

  async function ready(res: Response): Promise<void> {
    res.setHeader('Cache-Control', 'no-store');
    if (state.draining) {
      res.status(503).json({ status: 'draining' });
      return;
    }
    const reachable = runtime.database.available() && (await pingWithin(runtime, PING_TIMEOUT_MS));
    if (!reachable) {
      res.setHeader('Retry-After', '5');
      res.status(503).json({ status: 'unavailable', database: 'down' });
      return;
    }
    res.json({ status: 'ok' });
  }
  router.get('/healthz', (_req, res) => ready(res));
  router.get('/healthz/ready', (_req, res) => ready(res));
  return router;
}

async function pingWithin(runtime: Runtime, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('database ping timed out'), { code: 'CONNECT_TIMEOUT' })), timeoutMs);
  });
  try {
    await Promise.race([runtime.database.ping(), timeout]);
    return true;
  } catch (error) {
    runtime.database.observe(error);
    return false;
  } finally {
    clearTimeout(timer);
  }
}
