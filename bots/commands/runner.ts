import type { z } from 'zod';
import { AppError, fromDatabaseError } from '../../src/errors.js';
import { englishIssueMessage } from '../../src/validation-messages.js';
import type { Logger } from '../../src/logger.js';
import type { Account } from '../../src/platform/accounts.js';
import type { ApiId } from '../../src/platform/catalog.js';
import { executeOperation, type Operation } from '../../src/platform/execute.js';
import { MESSAGE_ACTIONS, runMessageAction, type MessageActionId, type TargetMessage } from './message-actions.js';
import { createCommandRateLimiter, DEFAULT_RATE_LIMIT, type RateLimitOptions } from './rate-limit.js';
import { findCommand } from './registry.js';
import { channelScope } from './knowledge-scope.js';
import { forPlatform, PLATFORM_TEXTS, TEXTS, translateText } from './texts.js';
import { commandUsage } from './usage.js';
import type { Answer, BotCommand, BotServices, CommandContext, ImageSource, Invocation, RawOptions, Reply, Text } from './types.js';
import { isPublicReply, type Visibility } from './visibility.js';

export interface CommandRunnerOptions {
  rateLimit?: RateLimitOptions;
}

/** What the runner needs to know of a command or message action before running it. */
interface Guard extends Visibility {
  label: string;
  unlinked?: boolean;
  /** How to type the command: shown instead of the REST field a refused value came from. */
  usage?: Text;
}

/** What both chat doors call: every outcome is a Reply (it never throws). */
export interface CommandRunner {
  /** Runs `/name` with raw option values (typed on Discord, words on Slack). */
  run(invocation: Invocation, name: string, raw: RawOptions, image?: ImageSource): Promise<Reply>;
  /** Runs a message action on a message: the caller alone sees the answer. */
  runAction(invocation: Invocation, id: MessageActionId, message: TargetMessage): Promise<Reply>;
  /** A 👍 or 👎 on a knowledge answer: a 👎 stores the question alone (issue 39 item 5). */
  runFeedback(invocation: Invocation, vote: 'up' | 'down', question: string): Promise<Reply>;
}

/**
 * The one generic handler behind both doors: rate limit, linked account, option parsing,
 * the command, who sees the reply, and the error mapping (the core's Korean message; a
 * reference id for the unexpected). It never throws: every outcome is a Reply.
 */
export function createCommandRunner(services: BotServices, options: CommandRunnerOptions = {}): CommandRunner {
  const limiter = createCommandRateLimiter(options.rateLimit ?? DEFAULT_RATE_LIMIT);

  function contextFor(invocation: Invocation, account: Account | undefined, logger: Logger, image?: ImageSource): CommandContext {
    const t = (text: Text) => translateText(invocation.locale, text);
    return {
      invocation,
      account,
      logger,
      locale: invocation.locale,
      t,
      image,
      async call<A extends ApiId>(api: A, input: unknown): Promise<Answer<A>> {
        return (await this.run(services.operations[api] as Operation, input)) as Answer<A>;
      },
      async run<Output extends object>(operation: Operation<z.ZodType, Output>, input: unknown) {
        if (!account) throw new AppError('UNAUTHORIZED', forPlatform(invocation.platform, PLATFORM_TEXTS.notLinked).ko);
        const { output, quota } = await executeOperation(
          services.quota,
          operation,
          {
            account,
            logger,
            requestId: invocation.requestId,
            ...(invocation.workspaceId ? { workspace: `${invocation.platform}:${invocation.workspaceId}` } : {}),
          },
          input,
          services.observeOperation,
        );
        return { ...output, remaining: quota.remaining };
      },
      extra: services.extra,
      linking: {
        keyOwner: (key) => services.apiKeys.authenticate(key),
        link: (ref, key, by) => services.workspaceLinks.link(ref, key, by),
      },
      watches: services.watches,
      knowledge: services.knowledge,
    };
  }

  async function guarded(
    invocation: Invocation,
    guard: Guard,
    requestedPublic: unknown,
    work: (ctx: CommandContext) => Promise<Reply>,
    image?: ImageSource,
  ): Promise<Reply> {
    const t = (text: Text) => translateText(invocation.locale, text);
    // Sensitive commands log nothing but their name: no options, no fields.
    const logger = services.logger.child({
      door: invocation.platform,
      command: guard.label,
      requestId: invocation.requestId,
      workspace: invocation.workspaceId,
    });
    const started = performance.now();
    try {
      const wait = limiter.take(`${invocation.platform}:${invocation.workspaceId ?? '-'}:${invocation.userId}`);
      if (wait > 0)
        return {
          title: t({ ko: '잠시만요', en: 'Slow down' }),
          text: translateText(invocation.locale, TEXTS.rateLimited, { seconds: wait }),
          tone: 'warn',
        };
      const account = invocation.workspaceId
        ? await services.workspaceLinks.accountFor({ platform: invocation.platform, workspaceId: invocation.workspaceId })
        : undefined;
      if (!account && !guard.unlinked)
        return { title: t(TEXTS.notLinkedTitle), text: t(forPlatform(invocation.platform, PLATFORM_TEXTS.notLinked)), tone: 'info' };
      const reply = withStoppedWatches(
        await work(contextFor(invocation, account, logger, image)),
        account ? await services.watches.takeStopped(account.id, invocation) : [],
      );
      logger.info({ ms: Math.round(performance.now() - started), tone: reply.tone }, 'bot command answered');
      return { ...reply, public: reply.public !== false && isPublicReply(guard, requestedPublic) };
    } catch (error) {
      return renderError(error, invocation, logger, t, guard.usage);
    }
  }

  return {
    /** Runs `/name` with raw option values (typed on Discord, words on Slack). */
    async run(invocation: Invocation, name: string, raw: RawOptions, image?: ImageSource): Promise<Reply> {
      const command = findCommand(name);
      if (!command) return { title: translateText(invocation.locale, TEXTS.unknownCommand), tone: 'error' };
      const guard = {
        label: command.name,
        unlinked: command.unlinked,
        sensitive: command.sensitive,
        publicable: command.publicable,
        usage: commandUsage(command, invocation.platform),
      };
      return guarded(
        invocation,
        guard,
        raw.public,
        async (ctx) => {
          const parsed = command.schema.safeParse(raw, { reportInput: true });
          const issue = parsed.error?.issues[0];
          const problem = issue && (ctx.locale === 'en' ? englishIssueMessage(issue) : issue.message);
          if (!parsed.success) return { ...usageReply(ctx, command, guard.usage, problem), public: false };
          return command.handle(ctx, parsed.data);
        },
        image,
      );
    },

    /** Runs a message action ("링크 검사", "번역", "신분증 읽기") on a message: the caller alone sees the answer. */
    async runAction(invocation: Invocation, id: MessageActionId, message: TargetMessage): Promise<Reply> {
      const action = MESSAGE_ACTIONS.find((candidate) => candidate.id === id);
      return guarded(invocation, { label: id, sensitive: action?.sensitive }, undefined, (ctx) => runMessageAction(ctx, id, message));
    },

    async runFeedback(invocation: Invocation, vote: 'up' | 'down', question: string): Promise<Reply> {
      return guarded(invocation, { label: 'kb_feedback' }, undefined, async (ctx) => {
        const asked = question.trim();
        if (vote === 'down' && asked && ctx.account)
          await services.knowledge.feedback.add(ctx.account.id, asked, channelScope(invocation) ?? null);
        return {
          title: ctx.t({ ko: '의견 고맙습니다', en: 'Thanks for the feedback' }),
          text:
            vote === 'down'
              ? ctx.t({
                  ko: '이 질문을 포털의 "👎 받은 질문"에 남겼습니다. 빠진 지식을 추가하면 다음에는 답할 수 있어요.',
                  en: 'The question is listed in the portal under questions marked 👎, so the missing knowledge can be added.',
                })
              : undefined,
          tone: 'info',
        };
      });
    },
  };
}

/** Watches of this person that stopped unseen (their DM failed) are told in the next reply. */
function withStoppedWatches(reply: Reply, notices: string[]): Reply {
  if (notices.length === 0) return reply;
  return { ...reply, context: [reply.context, ...notices].filter(Boolean).join('\n') };
}

function usageReply(ctx: CommandContext, command: BotCommand, usage: Text, problem: string | undefined): Reply {
  return {
    title: ctx.t(TEXTS.usageTitle),
    text: `\`${ctx.t(usage)}\`${problem ? `\n${problem}` : ''}`,
    context: ctx.t(command.description),
    tone: 'info',
  };
}

/**
 * The core's refusal in the user's language. A refused field is one of the REST API's names
 * (`target_lang`), never typed in a chat: the bots say what is wrong and show how to type
 * the command instead.
 */
function renderError(raw: unknown, invocation: Invocation, logger: Logger, t: (text: Text) => string, usage?: Text): Reply {
  // A database outage or statement timeout reads as "try again shortly", not as a bug.
  const error = raw instanceof AppError ? raw : (fromDatabaseError(raw) ?? raw);
  if (error instanceof AppError) {
    logger.info({ status: error.status, code: error.code }, 'bot command refused');
    if (error.code === 'UNAUTHORIZED')
      return { title: t(TEXTS.notLinkedTitle), text: t(forPlatform(invocation.platform, PLATFORM_TEXTS.notLinked)), tone: 'info' };
    const tone = error.status >= 500 ? 'error' : 'warn';
    if (error.detail) {
      const detail = invocation.locale === 'en' ? (error.detail.en ?? error.localized('en')) : error.detail.ko;
      return { title: t(TEXTS.errorTitle), text: usage ? `${detail}\n${t(TEXTS.usageTitle)}: \`${t(usage)}\`` : detail, tone };
    }
    return { title: t(TEXTS.errorTitle), text: error.localized(invocation.locale), tone };
  }
  logger.error({ err: error }, 'bot command failed');
  return {
    title: t(TEXTS.errorTitle),
    text: translateText(invocation.locale, TEXTS.unexpected, { ref: invocation.requestId }),
    tone: 'error',
  };
}
