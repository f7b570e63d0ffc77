import express, { Router } from 'express';
import type { Logger } from '../../src/logger.js';
import type { InteractionHandler } from './interactions.js';
import { CHANNEL_MESSAGE, type DiscordInteraction } from './payload.js';
import { EPHEMERAL } from './render.js';
import { discordPublicKey, verifyDiscordRequest } from './verify.js';

/**
 * `POST /discord/interactions`: the raw body is verified (Ed25519, 401 on failure) before it
 * is parsed; the answer goes back at once and any follow-up runs after the response.
 */
export function discordInteractionsRouter(publicKey: string, rootLogger: Logger, handle: InteractionHandler): Router {
  const key = discordPublicKey(publicKey);
  const logger = rootLogger.child({ door: 'discord' });
  const router = Router();
  router.post('/discord/interactions', express.raw({ type: () => true, limit: '1mb' }), async (req, res) => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    if (!verifyDiscordRequest(key, req.get('x-signature-ed25519'), req.get('x-signature-timestamp'), body)) {
      res.status(401).json({ success: false, code: 401, error: '서명이 올바르지 않습니다.', error_code: 'UNAUTHORIZED' });
      return;
    }
    let interaction: DiscordInteraction;
    try {
      interaction = JSON.parse(body.toString('utf8')) as DiscordInteraction;
    } catch {
      res.status(400).json({ success: false, code: 400, error: 'JSON 형식이 올바르지 않습니다.', error_code: 'INVALID_JSON' });
      return;
    }
    try {
      const answer = await handle(interaction);
      res.json(answer.body);
      if (answer.followUp)
        void answer
          .followUp()
          .catch((error: unknown) => logger.error({ err: error, requestId: interaction.id }, 'discord follow-up failed'));
    } catch (error) {
      logger.error({ err: error, requestId: interaction.id }, 'discord interaction failed');
      res.json({
        type: CHANNEL_MESSAGE,
        data: { content: `예상치 못한 오류가 발생했습니다. 참조 ID: ${interaction.id}`, flags: EPHEMERAL },
      });
    }
  });
  return router;
}
