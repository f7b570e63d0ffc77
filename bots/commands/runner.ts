import { AppError } from '../../src/errors.js';
import type { ApiId } from '../../src/platform/catalog.js';
import { executeOperation, type Operation } from '../../src/platform/execute.js';
import type { Runtime } from '../../src/runtime.js';
import { runMessageAction, type MessageActionId, type TargetMessage } from './message-actions.js';
import { createRateLimiter, DEFAULT_RATE_LIMIT, type RateLimitOptions } from './rate-limit.js';
import { findCommand } from './registry.js';
import { TEXTS, translateText } from './texts.js';
import type { BotCommand, CommandContext, ImageSource, Invocation, RawOptions, Reply, Text } from './types.js';

export interface CommandRunnerOptions {
  rateLimit?: RateLimitOptions;
}

/**
 * The one generic handler behind both doors: rate limit, linked account, option parsing,
 * the command, and the error mapping (the core's Korean message; a reference id for the
 * unexpected). It never throws: every outcome is a Reply.
 */
export function createCommandRunner(runtime: Runtime, options: CommandRunnerOptions = {}) {
  const limiter = createRateLimiter(options.rateLimit ?? DEFAULT_RATE_LIMIT);

  async function guarded(
    invocation: Invocation,
    label: string,
    unlinked: boolean,
    sensitive: boolean,
    work: (ctx: CommandContext) => Promise<Reply>,
    image?: ImageSource,
  ): Promise<Reply> {
    const t = (text: Text) => translateText(invocation.locale, text);
    // Sensitive commands log nothing but their name: no options, no fields.
    const logger = runtime.logger.child({ door: invocation.platform, command: label, requestId: invocation.requestId, workspace: invocation.workspaceId });
    const started = performance.now();
    try {
      const wait = limiter.take(`${invocation.platform}:${invocation.workspaceId ?? '-'}:${invocation.userId}`);
      if (wait > 0) return { title: t({ ko: '잠시만요', en: 'Slow down' }), text: translateText(invocation.locale, TEXTS.rateLimited, { seconds: wait }), tone: 'warn' };
      const account = invocation.workspaceId
        ? await runtime.platform.workspaceLinks.accountFor({ platform: invocation.platform, workspaceId: invocation.workspaceId })
        : undefined;
      if (!account && !unlinked) return { title: t(TEXTS.notLinkedTitle), text: t(TEXTS.notLinked), tone: 'info' };
      const ctx: CommandContext = {
        runtime,
        invocation,
        account,
        logger,
        locale: invocation.locale,
        t,
        image,
        async call<T>(api: ApiId, input: unknown) {
          const operation = (runtime.operations as Partial<Record<ApiId, Operation>>)[api];
          if (!operation) throw new AppError('NOT_IMPLEMENTED', TEXTS.coming.ko);
          if (!account) throw new AppError('UNAUTHORIZED', TEXTS.notLinked.ko);
          const { body } = await executeOperation(runtime.platform.subscriptions, operation, { account, logger, requestId: invocation.requestId }, input);
          return body as T & { remaining: number };
        },
      };
      const reply = withStoppedWatches(await work(ctx), account ? await runtime.watches.takeStopped(account.id, invocation) : []);
      logger.info({ ms: Math.round(performance.now() - started), tone: reply.tone }, 'bot command answered');
      return sensitive ? { ...reply, public: false } : reply;
    } catch (error) {
      return renderError(error, invocation, logger, t);
    }
  }

  return {
    /** Runs `/name` with raw option values (typed on Discord, words on Slack). */
    async run(invocation: Invocation, name: string, raw: RawOptions, image?: ImageSource): Promise<Reply> {
      const command = findCommand(name);
      if (!command) return { title: translateText(invocation.locale, TEXTS.unknownCommand), tone: 'error' };
      return guarded(invocation, command.name, command.unlinked === true, command.sensitive === true, async (ctx) => {
        const parsed = command.schema.safeParse(raw);
        if (!parsed.success) return usageReply(ctx, command, parsed.error.issues[0]?.message);
        return command.handle(ctx, parsed.data);
      }, image);
    },

    /** Runs a message action ("링크 검사", "번역", "신분증 읽기") on a message. */
    async runAction(invocation: Invocation, id: MessageActionId, message: TargetMessage): Promise<Reply> {
      return guarded(invocation, id, false, id === 'read_idcard', (ctx) => runMessageAction(ctx, id, message));
    },
  };
}

export type CommandRunner = ReturnType<typeof createCommandRunner>;

/** Watches of this person that stopped unseen (their DM failed) are told in the next reply. */
function withStoppedWatches(reply: Reply, notices: string[]): Reply {
  if (notices.length === 0) return reply;
  return { ...reply, context: [reply.context, ...notices].filter(Boolean).join('\n') };
}

function usageReply(ctx: CommandContext, command: BotCommand, problem: string | undefined): Reply {
  return {
    title: ctx.t(TEXTS.usageTitle),
    text: `\`${ctx.t(command.usage)}\`${problem ? `\n${problem}` : ''}`,
    context: ctx.t(command.description),
    tone: 'info',
  };
}

function renderError(error: unknown, invocation: Invocation, logger: Runtime['logger'], t: (text: Text) => string): Reply {
  if (error instanceof AppError) {
    logger.info({ status: error.status, code: error.code }, 'bot command refused');
    if (error.code === 'NOT_IMPLEMENTED') return { title: t(TEXTS.comingTitle), text: t(TEXTS.coming), tone: 'info' };
    if (error.code === 'UNAUTHORIZED') return { title: t(TEXTS.notLinkedTitle), text: t(TEXTS.notLinked), tone: 'info' };
    return { title: t(TEXTS.errorTitle), text: error.message, tone: error.status >= 500 ? 'error' : 'warn' };
  }
  logger.error({ err: error }, 'bot command failed');
  return { title: t(TEXTS.errorTitle), text: translateText(invocation.locale, TEXTS.unexpected, { ref: invocation.requestId }), tone: 'error' };
}
