import type { Router } from 'express';
import type { BotPlatform } from '../src/platform/workspace-links.js';

/**
 * One chat platform's door, as the server composes it: the HTTP router it serves (mounted by
 * the HTTP app before any body parser, since signatures are checked over the raw body) and
 * the outbound connections it holds (Socket Mode, the Discord gateway).
 */
export interface BotDoor {
  platform: BotPlatform;
  /** `POST /slack/events` or `POST /discord/interactions`; absent in Socket Mode / gateway-only setups. */
  router?: Router;
  start(): Promise<void>;
  stop(): Promise<void>;
}
