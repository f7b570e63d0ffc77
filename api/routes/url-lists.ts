import { Router } from 'express';
import type { Runtime } from '../../src/runtime.js';
import { authenticate } from '../middleware/auth.js';

/**
 * CONTRACT §5: `GET /api/v1/url/lists` (API key, free) shows each harmful-URL feed's state;
 * the portal's feed panel calls it with the login token.
 */
export function urlListRoutes(runtime: Runtime): Router {
  const router = Router();
  router.get('/url/lists', authenticate(runtime, 'either'), async (_req, res) => {
    const states = await runtime.urlDetection.feedStates();
    const model = runtime.urlDetection.engine.model?.info;
    res.json({
      success: true,
      lists: states.map((s) => ({
        name: s.name,
        category: s.category,
        format: s.format,
        entries: s.entries,
        skipped_lines: s.skipped,
        fetched_at: s.fetchedAt?.toISOString() ?? null,
        last_attempt_at: s.lastAttemptAt?.toISOString() ?? null,
        last_error: s.lastError,
      })),
      loaded_entries: runtime.urlDetection.engine.listSize,
      model: model ? { examples: model.examples, threshold: Number(model.threshold.toFixed(4)) } : null,
    });
  });
  return router;
}
