import type { z } from 'zod';
import type { Logger } from '../../src/logger.js';
import type { WatchService } from '../../src/operations/delivery-watch/watch-service.js';
import type { Account } from '../../src/platform/accounts.js';
import type { ApiKeys } from '../../src/platform/api-keys.js';
import type { ApiId } from '../../src/platform/catalog.js';
import type { InputOf, Operation, OutputOf } from '../../src/platform/execute.js';
import type { Business } from '../../src/operations/business/business.js';
import type { Quota } from '../../src/platform/quota.js';
import type { OperationObserver } from '../../src/platform/metric-definitions.js';
import type { BotPlatform, WorkspaceLinks } from '../../src/platform/workspace-links.js';
import type { Operations, Runtime } from '../../src/runtime.js';
import type { LinkGuard } from '../../src/operations/link-guard/link-guard.js';
import type { KnowledgeFeedback, KnowledgeSettings } from '../../src/operations/chatbot/feedback-store.js';

export type Locale = 'ko' | 'en';

/** A text in both languages of the bots. */
export interface Text {
  ko: string;
  en: string;
}

/** One option of a command, in the order Slack reads it from the command text. */
export interface OptionDef {
  name: string;
  type: 'string' | 'integer' | 'boolean' | 'attachment';
  description: Text;
  required: boolean;
  /** Slack: this option takes the rest of the text (it must be the last). */
  rest?: boolean;
  choices?: readonly string[];
  /** Discord's names for the choices (`영어 (en)`), when they differ from the values. */
  choiceNames?: ReadonlyArray<{ name: string; name_localizations: Record<string, string>; value: string }>;
}

export interface SubcommandDef {
  name: string;
  description: Text;
  options: OptionDef[];
}

/** A platform-neutral answer; the adapters render it as Block Kit or an embed. */
export interface Reply {
  title: string;
  text?: string;
  fields?: Array<{ name: string; value: string; inline?: boolean }>;
  /** A short last line: remaining calls, a hint. */
  context?: string;
  tone: 'ok' | 'warn' | 'error' | 'info';
  /** Set by the runner only (bots/commands/visibility.ts): posted to the channel, else seen by the caller alone. */
  public?: boolean;
  /** The passage an answer rests on, with its source's name and link (shown quoted). */
  quote?: { text: string; source?: string | null; url?: string | null };
  /** Offer 👍/👎 on this answer; a 👎 stores the question (no other content). */
  feedback?: { question: string };
}

/** Who invoked a command, where, and how to reach the platform for what the core can't do. */
export interface Invocation {
  platform: BotPlatform;
  /** Slack team id or Discord guild id; undefined in a Discord DM. */
  workspaceId: string | undefined;
  /** Where the command was run: the channel `/track … watch` posts changes to. */
  channelId: string | undefined;
  /** In a Discord thread: the channel it belongs to (knowledge scopes are per channel, threads included). */
  threadParentId?: string;
  userId: string;
  locale: Locale;
  /** The interaction's id, shown as the reference of an unexpected error. */
  requestId: string;
  /** Slack workspace admin / Discord Manage Server. */
  canManage(): Promise<boolean>;
  /** `/guard`: Slack workspace admin or the channel's creator / Discord Manage Channels (else `canManage`). */
  canManageChannel?(): Promise<boolean>;
}

/** The raw option values: typed on Discord, words on Slack; the command's schema coerces both. */
export type RawOptions = Record<string, unknown>;

/** Fetches an attachment's bytes (the adapter knows the auth); throws an AppError when unusable. */
export type ImageSource = () => Promise<Buffer>;

/** What an operation answers a bot: its own output and the caller's remaining calls. */
export type Answer<A extends ApiId> = OutputOf<Operations[A]> & { remaining: number };

/** The parts of the service the bots use, and nothing else of the runtime. */
export interface BotServices {
  logger: Logger;
  quota: Quota;
  /** Counts each call by operation and outcome (the runtime's metrics). */
  observeOperation?: OperationObserver;
  operations: Operations;
  workspaceLinks: Pick<WorkspaceLinks, 'accountFor' | 'link'>;
  apiKeys: Pick<ApiKeys, 'authenticate'>;
  watches: Pick<WatchService, 'create' | 'remove' | 'takeStopped' | 'setChannelDigest'>;
  /** Operations beyond the eight that the commands run, charged to the API they name. */
  extra: ExtraOperations;
  /** 👎 questions and each workspace's knowledge settings. */
  knowledge: KnowledgeServices;
}

export interface KnowledgeServices {
  feedback: Pick<KnowledgeFeedback, 'add'>;
  settings: KnowledgeSettings;
}

/** `/bizcheck`: the National Tax Service's status check (an `ocr-idcard` call per number). */
export interface ExtraOperations {
  businessStatus: Business['status'];
  /** `/shorten` with several URLs: the bulk shortener (one `url-shortener` call per link made). */
  shortenBulk?: Runtime['shortenBulk'];
  /** Remembers the chat a link was made from, told if a rescan finds its target harmful (not an operation: no charge). */
  linkOrigin?: Runtime['shortLinks']['setOrigin'];
  /** `/guard`: the link guard's settings, allow list and incidents. */
  linkGuard: LinkGuard;
  /** "스미싱 검사" and DMs: the message check (`POST /url/scan`). */
  urlScan: Runtime['urlScan'];
}

export interface CommandContext {
  invocation: Invocation;
  /** Present for every command except `/link`. */
  account: Account | undefined;
  logger: Logger;
  locale: Locale;
  t(text: Text): string;
  /** Runs an operation through the core (validation, quota, refund), typed by the operation itself. */
  call<A extends ApiId>(api: A, input: InputOf<Operations[A]>): Promise<Answer<A>>;
  /** The same for an operation beyond the eight (`ctx.extra`). */
  run<Schema extends z.ZodType, Output extends object>(
    operation: Operation<Schema, Output>,
    input: z.input<Schema>,
  ): Promise<Output & { remaining: number }>;
  extra: ExtraOperations;
  /** `/link`: who owns a key, and linking the workspace to that account. */
  linking: { keyOwner: ApiKeys['authenticate']; link: WorkspaceLinks['link'] };
  /** `/track … watch` and `/untrack`: channel watches (the lookup already paid for them). */
  watches: Pick<WatchService, 'create' | 'remove' | 'takeStopped' | 'setChannelDigest'>;
  /** The attachment given with the command, if any. */
  image?: ImageSource;
  knowledge: KnowledgeServices;
}

export interface BotCommand<Schema extends z.ZodType = z.ZodType> {
  name: string;
  description: Text;
  options: OptionDef[];
  subcommands?: SubcommandDef[];
  schema: Schema;
  /** How to use it, shown when the options don't parse. */
  usage: Text;
  /** The operation it runs. */
  api?: ApiId;
  /** Work that can exceed the platforms' 3 seconds: acknowledge / defer first. */
  slow: boolean;
  /** ID documents, API keys: always seen by the caller alone, nothing logged. */
  sensitive?: boolean;
  /** The caller may ask for a public reply (`public` / `공개`). */
  publicable?: boolean;
  /** `/link` runs without a linked account. */
  unlinked?: boolean;
  /** Offered by Discord only to members who can manage the server (`default_member_permissions`). */
  managersOnly?: boolean;
  handle(ctx: CommandContext, options: z.output<Schema>): Promise<Reply>;
}
