import { REST } from '@discordjs/rest';
import express, { Router } from 'express';
import type { Runtime } from '../../src/runtime.js';
import { downloadImage } from '../commands/download.js';
import { MESSAGE_ACTIONS } from '../commands/message-actions.js';
import { findCommand } from '../commands/registry.js';
import type { CommandRunner } from '../commands/runner.js';
import { localeOf } from '../commands/texts.js';
import type { ImageSource, Invocation, RawOptions, Reply } from '../commands/types.js';
import { EPHEMERAL, toDiscordMessage } from './render.js';
import { discordPublicKey, verifyDiscordRequest } from './verify.js';

/** The parts of an interaction payload the door reads (Discord API v10). */
export interface DiscordInteraction {
  id: string;
  application_id: string;
  type: number;
  token: string;
  guild_id?: string;
  channel_id?: string;
  locale?: string;
  member?: { user?: { id: string }; permissions?: string };
  user?: { id: string };
  data?: {
    name: string;
    type?: number;
    target_id?: string;
    options?: DiscordOption[];
    resolved?: {
      attachments?: Record<string, DiscordAttachment>;
      messages?: Record<string, { content?: string; attachments?: DiscordAttachment[] }>;
    };
  };
}

interface DiscordOption {
  name: string;
  type: number;
  value?: string | number | boolean;
  options?: DiscordOption[];
}

interface DiscordAttachment {
  url: string;
  content_type?: string;
  size?: number;
}

/** What to answer on the HTTP request now, and the work that edits `@original` afterwards. */
export interface InteractionAnswer {
  body: Record<string, unknown>;
  followUp?: () => Promise<void>;
}

const PING = 1;
const APPLICATION_COMMAND = 2;
const CHAT_INPUT = 1;
const MESSAGE_COMMAND = 3;
const SUB_COMMAND = 1;
const CHANNEL_MESSAGE = 4;
const DEFERRED_CHANNEL_MESSAGE = 5;
const MANAGE_GUILD = 1n << 5n;
const ADMINISTRATOR = 1n << 3n;

/**
 * The Discord door's logic, shared by HTTP interactions and the optional gateway client:
 * slow commands are deferred (type 5, ephemeral unless the caller asked for a public
 * answer) and their result edits `@original` through REST; quick ones answer at once.
 */
export function createInteractionHandler(runtime: Runtime, runner: CommandRunner, rest: REST) {
  const logger = runtime.logger.child({ door: 'discord' });

  function invocationOf(interaction: DiscordInteraction): Invocation {
    const userId = interaction.member?.user?.id ?? interaction.user?.id ?? 'unknown';
    return {
      platform: 'discord',
      workspaceId: interaction.guild_id,
      channelId: interaction.channel_id,
      userId,
      locale: localeOf(interaction.locale),
      requestId: interaction.id,
      canManage: async () => {
        const bits = BigInt(interaction.member?.permissions ?? '0');
        return (bits & MANAGE_GUILD) !== 0n || (bits & ADMINISTRATOR) !== 0n;
      },
    };
  }

  function deferred(interaction: DiscordInteraction, ephemeral: boolean, work: () => Promise<Reply>): InteractionAnswer {
    return {
      body: { type: DEFERRED_CHANNEL_MESSAGE, data: { flags: ephemeral ? EPHEMERAL : 0 } },
      followUp: async () => {
        const reply = await work();
        const path = `/webhooks/${interaction.application_id}/${interaction.token}/messages/@original` as const;
        await rest.patch(path, { body: toDiscordMessage(reply), auth: false }).catch((error: unknown) => {
          logger.warn({ err: error, requestId: interaction.id }, 'editing the deferred answer failed');
        });
      },
    };
  }

  return async function handle(interaction: DiscordInteraction): Promise<InteractionAnswer> {
    if (interaction.type === PING) return { body: { type: 1 } };
    const data = interaction.data;
    if (interaction.type !== APPLICATION_COMMAND || !data) {
      return { body: { type: CHANNEL_MESSAGE, data: { content: '지원하지 않는 상호작용입니다.', flags: EPHEMERAL } } };
    }
    const who = invocationOf(interaction);

    if (data.type === MESSAGE_COMMAND) {
      const action = MESSAGE_ACTIONS.find((candidate) => candidate.name.ko === data.name || candidate.name.en === data.name);
      const target = data.target_id ? data.resolved?.messages?.[data.target_id] : undefined;
      if (!action || !target) return { body: { type: CHANNEL_MESSAGE, data: { content: '알 수 없는 명령입니다.', flags: EPHEMERAL } } };
      const attachment = target.attachments?.find((candidate) => candidate.content_type?.startsWith('image/'));
      return deferred(interaction, true, () => runner.runAction(who, action.id, { text: target.content ?? '', image: attachment ? attachmentImage(attachment) : undefined }));
    }

    if (data.type !== undefined && data.type !== CHAT_INPUT) return { body: { type: CHANNEL_MESSAGE, data: { content: '알 수 없는 명령입니다.', flags: EPHEMERAL } } };
    const command = findCommand(data.name);
    const { raw, image } = readOptions(data);
    const ephemeral = !command || command.sensitive === true || !(command.publicable && raw.public === true);
    if (command?.slow) return deferred(interaction, ephemeral, () => runner.run(who, data.name, raw, image));
    const reply = await runner.run(who, data.name, raw, image);
    return { body: { type: CHANNEL_MESSAGE, data: { ...toDiscordMessage(reply), flags: reply.public ? 0 : EPHEMERAL } } };
  };
}

export type InteractionHandler = ReturnType<typeof createInteractionHandler>;

/** Option values by name; a subcommand becomes `sub`; the attachment becomes an image source. */
function readOptions(data: NonNullable<DiscordInteraction['data']>): { raw: RawOptions; image?: ImageSource } {
  const raw: RawOptions = {};
  let options = data.options ?? [];
  const sub = options.find((option) => option.type === SUB_COMMAND);
  if (sub) {
    raw.sub = sub.name;
    options = sub.options ?? [];
  }
  let image: ImageSource | undefined;
  for (const option of options) {
    if (option.type === 11) {
      const attachment = data.resolved?.attachments?.[String(option.value)];
      if (attachment) image = attachmentImage(attachment);
      continue;
    }
    raw[option.name] = option.value;
  }
  return { raw, image };
}

function attachmentImage(attachment: DiscordAttachment): ImageSource {
  return () => downloadImage(attachment.url);
}

/** The REST client for interaction webhooks and registration (`DISCORD_API_URL` points it at a fake in tests). */
export function createDiscordRest(runtime: Runtime): REST {
  const rest = new REST({ api: runtime.config.DISCORD_API_URL, version: '10' });
  if (runtime.config.DISCORD_BOT_TOKEN) rest.setToken(runtime.config.DISCORD_BOT_TOKEN);
  return rest;
}

/**
 * `POST /discord/interactions`: the raw body is verified (Ed25519, 401 on failure) before it
 * is parsed; the answer goes back at once and any follow-up runs after the response.
 */
export function discordInteractionsRouter(runtime: Runtime, handle: InteractionHandler): Router {
  const key = discordPublicKey(runtime.config.DISCORD_PUBLIC_KEY!);
  const logger = runtime.logger.child({ door: 'discord' });
  const router = Router();
  router.post('/discord/interactions', express.raw({ type: () => true, limit: '1mb' }), async (req, res) => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const signature = req.get('x-signature-ed25519');
    const verified = verifyDiscordRequest(key, signature, req.get('x-signature-timestamp'), body);
    // A verified request seen before (within five minutes, on any instance) is a replay.
    if (!verified || !(await runtime.platform.replayGuard.firstSeen(`discord:${signature!.toLowerCase()}`))) {
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
      if (answer.followUp) void answer.followUp().catch((error: unknown) => logger.error({ err: error, requestId: interaction.id }, 'discord follow-up failed'));
    } catch (error) {
      logger.error({ err: error, requestId: interaction.id }, 'discord interaction failed');
      res.json({ type: CHANNEL_MESSAGE, data: { content: `예상치 못한 오류가 발생했습니다. 참조 ID: ${interaction.id}`, flags: EPHEMERAL } });
    }
  });
  return router;
}
