import express, { Router } from 'express';
import { AppError } from '../../src/errors.js';
import { badSignature } from '../door.js';
import type { Logger } from '../../src/logger.js';
import type { ReplayGuard } from '../../src/platform/replay-store.js';
import type { InteractionHandler } from './interactions.js';
import { CHANNEL_MESSAGE, type DiscordInteraction } from './payload.js';
import { EPHEMERAL, NO_MENTIONS } from './render.js';
import { discordPublicKey, verifyDiscordRequest } from './verify.js';

/**
 * `POST /discord/interactions`: the raw body is verified (Ed25519, 401 on failure, and 401 for
 * a replay of a request already seen) before it is parsed; the answer goes back at once and any follow-up runs after the response.
 */
export function discordInteractionsRouter(publicKey: string, rootLogger: Logger, handle: InteractionHandler, replays: ReplayGuard): Router {
  const key = discordPublicKey(publicKey);
  const logger = rootLogger.child({ door: 'discord' });
  const router = Router();
  router.post('/discord/interactions', express.raw({ type: () => true, limit: '1mb' }), async (req, res) => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const signature = req.get('x-signature-ed25519');
    const verified = verifyDiscordRequest(key, signature, req.get('x-signature-timestamp'), body);
    // A verified request seen before (within five minutes, on any instance) is a replay.
    if (!verified || !(await replays.firstSeen(`discord:${signature!.toLowerCase()}`))) {
      throw badSignature();
    }
    let interaction: DiscordInteraction;
    try {
      interaction = JSON.parse(body.toString('utf8')) as DiscordInteraction;
    } catch {
      throw new AppError('INVALID_JSON', 'JSON 형식이 올바르지 않습니다.').en('The body is not valid JSON.');
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
        data: { content: `예상치 못한 오류가 발생했습니다. 참조 ID: ${interaction.id}`, flags: EPHEMERAL, allowed_mentions: NO_MENTIONS },
      });
    }
  });
  return router;
}
