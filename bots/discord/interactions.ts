import type { REST } from '@discordjs/rest';
import type { Logger } from '../../src/logger.js';
import { MESSAGE_ACTIONS } from '../commands/message-actions.js';
import { findCommand } from '../commands/registry.js';
import type { CommandRunner } from '../commands/runner.js';
import type { Reply } from '../commands/types.js';
import { isPublicReply } from '../commands/visibility.js';
import {
  APPLICATION_COMMAND,
  attachmentImage,
  CHANNEL_MESSAGE,
  CHAT_INPUT,
  DEFERRED_CHANNEL_MESSAGE,
  invocationOf,
  MESSAGE_COMMAND,
  PING,
  readOptions,
  type DiscordInteraction,
} from './payload.js';
import { EPHEMERAL, FEEDBACK_DOWN, FEEDBACK_UP, NO_MENTIONS, toDiscordMessage } from './render.js';
import { discordThread } from './thread.js';

/** What to answer on the HTTP request now, and the work that edits `@original` afterwards. */
export interface InteractionAnswer {
  body: Record<string, unknown>;
  followUp?: () => Promise<void>;
}

/** Interaction type 3: a button of one of the bot's messages was clicked. */
const MESSAGE_COMPONENT_INTERACTION = 3;

export type InteractionHandler = (interaction: DiscordInteraction) => Promise<InteractionAnswer>;

const notice = (content: string): InteractionAnswer => ({
  body: { type: CHANNEL_MESSAGE, data: { content, flags: EPHEMERAL, allowed_mentions: NO_MENTIONS } },
});

/**
 * The Discord door's logic, shared by HTTP interactions and the optional gateway client:
 * slow commands are deferred (type 5, ephemeral unless the reply will be public) and their
 * result edits `@original` through REST; quick ones answer at once.
 */
export function createInteractionHandler(rootLogger: Logger, runner: CommandRunner, rest: REST): InteractionHandler {
  const logger = rootLogger.child({ door: 'discord' });

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

  return async function handle(interaction) {
    if (interaction.type === PING) return { body: { type: 1 } };
    const data = interaction.data;
    if (interaction.type === MESSAGE_COMPONENT_INTERACTION && data?.custom_id && [FEEDBACK_UP, FEEDBACK_DOWN].includes(data.custom_id)) {
      const vote = data.custom_id === FEEDBACK_DOWN ? 'down' : 'up';
      const question = interaction.message?.embeds?.[0]?.title ?? '';
      return deferred(interaction, true, () => runner.runFeedback(invocationOf(interaction), vote, question));
    }
    if (interaction.type !== APPLICATION_COMMAND || !data) return notice('지원하지 않는 상호작용입니다.');
    const who = invocationOf(interaction);

    if (data.type === MESSAGE_COMMAND) {
      const action = MESSAGE_ACTIONS.find((candidate) => candidate.name.ko === data.name || candidate.name.en === data.name);
      const target = data.target_id ? data.resolved?.messages?.[data.target_id] : undefined;
      if (!action || !target) return notice('알 수 없는 명령입니다.');
      const attachment = target.attachments?.find(
        (candidate) => candidate.content_type?.startsWith('image/') || candidate.content_type === 'application/pdf',
      );
      const embedded = (target.embeds ?? []).flatMap((embed) => (embed.url ? [embed.url] : []));
      return deferred(interaction, true, () =>
        runner.runAction(who, action.id, {
          text: target.content ?? '',
          urls: embedded,
          image: attachment ? attachmentImage(attachment) : undefined,
          thread:
            action.id === 'save_knowledge' ? discordThread(rest, interaction, { ...target, id: target.id ?? data.target_id }) : undefined,
        }),
      );
    }

    if (data.type !== undefined && data.type !== CHAT_INPUT) return notice('알 수 없는 명령입니다.');
    const command = findCommand(data.name);
    const { raw, image } = readOptions(data);
    if (command?.slow) return deferred(interaction, !isPublicReply(command, raw.public), () => runner.run(who, data.name, raw, image));
    const reply = await runner.run(who, data.name, raw, image);
    return { body: { type: CHANNEL_MESSAGE, data: { ...toDiscordMessage(reply), flags: reply.public ? 0 : EPHEMERAL } } };
  };
}
