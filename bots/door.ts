import type { Router } from 'express';
import { AppError } from '../src/errors.js';
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

/**
 * The 401 of a webhook whose signature does not verify (or was seen before). Doors throw it
 * (and every other HTTP failure) to the HTTP app, whose one error renderer answers it.
 */
export const badSignature = () => new AppError('UNAUTHORIZED', '서명이 올바르지 않습니다.').en('The request signature is not valid.');
