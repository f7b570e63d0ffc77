import { createHmac } from 'node:crypto';
import express, { type RequestHandler } from 'express';
import { badSignature } from '../door.js';
import { constantTimeEqual } from '../../src/platform/secrets.js';
import type { ReplayGuard } from '../../src/platform/replay-store.js';

/** Slack's tolerance, both ways: Bolt only refuses old timestamps, not ones from the future. */
const MAX_SKEW_SECONDS = 300;

/**
 * In front of Bolt's receiver on `POST /slack/events`: reads the raw body once (Bolt then uses
 * `req.rawBody`), checks the v0 signature and that the timestamp is within five minutes either
 * way, and refuses a signature already seen (a replayed request) before Bolt runs anything.
 */
export function slackRequestGuard(signingSecret: string, replays: ReplayGuard): RequestHandler[] {
  const check: RequestHandler = async (req, res, next) => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const timestamp = req.get('x-slack-request-timestamp') ?? '';
    const signature = req.get('x-slack-signature') ?? '';
    const now = Math.floor(Date.now() / 1000);
    if (!/^\d{1,12}$/.test(timestamp) || Math.abs(now - Number(timestamp)) > MAX_SKEW_SECONDS) return next(badSignature());
    const expected = `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:`).update(body).digest('hex')}`;
    if (!constantTimeEqual(expected, signature)) return next(badSignature());
    if (!(await replays.firstSeen(`slack:${signature}`))) return next(badSignature());
    (req as { rawBody?: Buffer }).rawBody = body;
    next();
  };
  return [express.raw({ type: () => true, limit: '1mb' }), check];
}
