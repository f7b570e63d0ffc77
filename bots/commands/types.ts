import type { z } from 'zod';
import type { ApiId } from '../../src/platform/catalog.js';
import type { Account } from '../../src/platform/accounts.js';
import type { BotPlatform } from '../../src/platform/workspace-links.js';
import type { Logger } from '../../src/logger.js';
import type { Runtime } from '../../src/runtime.js';

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
  /** Public replies are posted to the channel; everything else is seen by the caller only. */
  public?: boolean;
}

/** Who invoked a command, where, and how to reach the platform for what the core can't do. */
export interface Invocation {
  platform: BotPlatform;
  /** Slack team id or Discord guild id; undefined in a Discord DM. */
  workspaceId: string | undefined;
  /** Where the command was run: the channel `/track … watch` posts changes to. */
  channelId: string | undefined;
  userId: string;
  locale: Locale;
  /** The interaction's id, shown as the reference of an unexpected error. */
  requestId: string;
  /** Slack workspace admin / Discord Manage Server. */
  canManage(): Promise<boolean>;
}

/** The raw option values: typed on Discord, words on Slack; the command's schema coerces both. */
export type RawOptions = Record<string, unknown>;

/** Fetches an attachment's bytes (the adapter knows the auth); throws an AppError when unusable. */
export type ImageSource = () => Promise<Buffer>;

export interface CommandContext {
  runtime: Runtime;
  invocation: Invocation;
  /** Present for every command except `/link`. */
  account: Account | undefined;
  logger: Logger;
  locale: Locale;
  t(text: Text): string;
  /** Runs an operation through the core (validation, quota, refund); answers "coming" when it is not registered. */
  call<T = Record<string, unknown>>(api: ApiId, input: unknown): Promise<T & { remaining: number }>;
  /** The attachment given with the command, if any. */
  image?: ImageSource;
}

export interface BotCommand<Schema extends z.ZodType = z.ZodType> {
  name: string;
  description: Text;
  options: OptionDef[];
  subcommands?: SubcommandDef[];
  schema: Schema;
  /** How to use it, shown when the options don't parse. */
  usage: Text;
  /** The operation it runs (for "coming soon" when absent). */
  api?: ApiId;
  /** Work that can exceed the platforms' 3 seconds: acknowledge / defer first. */
  slow: boolean;
  /** ID documents: always ephemeral, nothing logged. */
  sensitive?: boolean;
  /** The caller may ask for a public reply (`public` / `공개`). */
  publicable?: boolean;
  /** `/link` runs without a linked account. */
  unlinked?: boolean;
  handle(ctx: CommandContext, options: z.output<Schema>): Promise<Reply>;
}
