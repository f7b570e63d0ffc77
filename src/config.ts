import cron from 'node-cron';
import { z } from 'zod';

/**
 * The service's configuration: the only module that reads `process.env`.
 * Every variable of CONTRACT §2 is parsed here; a bad value stops the start with a
 * message naming the variable, a missing optional feature is simply switched off.
 */

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const httpUrl = z
  .string()
  .trim()
  .refine((value) => /^https?:\/\/[^\s]+$/i.test(value) && URL.canParse(value), 'must be an http(s) URL');

const optionalHttpUrl = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .refine((value) => value === undefined || (/^https?:\/\//i.test(value) && URL.canParse(value)), 'must be an http(s) URL')
  .optional();

const flag = z
  .enum(['', '0', '1', 'true', 'false', 'yes', 'no', 'on', 'off'])
  .optional()
  .transform((value) => value === '1' || value === 'true' || value === 'yes' || value === 'on');

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** Hours in Seoul when quiet parcels are polled less often: from `start` (inclusive) to `end` (exclusive). */
export interface QuietHours {
  start: number;
  end: number;
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `90s`, `30m`, `2h`, `1h30m`, `1d` → milliseconds; undefined when not a duration. */
export function parseDuration(text: string): number | undefined {
  const compact = text.trim().toLowerCase();
  if (!/^(\d+(ms|s|m|h|d))+$/.test(compact)) return undefined;
  let total = 0;
  for (const [, amount, unit] of compact.matchAll(/(\d+)(ms|s|m|h|d)/g)) total += Number(amount) * UNITS[unit!]!;
  return total > 0 ? total : undefined;
}

/** `22-7` (22:00 to 07:00 in Seoul) or `off`; undefined when neither. */
export function parseQuietHours(text: string): QuietHours | null | undefined {
  const compact = text.trim().toLowerCase();
  if (compact === 'off' || compact === 'none') return null;
  const match = /^(\d{1,2})-(\d{1,2})$/.exec(compact);
  if (!match) return undefined;
  const start = Number(match[1]);
  const end = Number(match[2]);
  return start <= 23 && end <= 24 && start !== end ? { start, end: end % 24 } : undefined;
}

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: optionalText.refine(
    (value) => value === undefined || /^postgres(ql)?:\/\//.test(value),
    'must start with postgres:// or postgresql://',
  ),
  PUBLIC_BASE_URL: optionalHttpUrl,
  SHORT_URL_BASE: optionalHttpUrl,
  DEFAULT_QUOTA: z.coerce.number().int().min(0).max(100_000_000).default(1000),
  /** Knowledge chatbot storage per account: entries, and characters of all entries together. */
  KNOWLEDGE_MAX_ENTRIES: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  KNOWLEDGE_MAX_CHARS: z.coerce.number().int().min(1).max(1_000_000_000).default(2_000_000),
  OPENAI_API_KEY: optionalText,
  OPENAI_BASE_URL: optionalHttpUrl,
  OPENAI_MODEL: z.string().trim().min(1).default('gpt-4o-mini'),
  OPENAI_VISION_MODEL: optionalText,
  OPENAI_EMBEDDING_MODEL: optionalText,
  OPENAI_TOKEN_PARAM: z.enum(['max_tokens', 'max_completion_tokens']).optional(),
  LLM_TIMEOUT_MS: positiveInt(30_000),
  /** PostgreSQL cancels a statement that runs longer (its `statement_timeout`); answered 503. */
  DB_STATEMENT_TIMEOUT_MS: positiveInt(10_000),
  DELIVERY_TRACKER_URL: httpUrl.default('https://apis.tracker.delivery/graphql'),
  DELIVERY_TRACKER_CLIENT_ID: optionalText,
  DELIVERY_TRACKER_CLIENT_SECRET: optionalText,
  SLACK_SIGNING_SECRET: optionalText,
  SLACK_BOT_TOKEN: optionalText,
  SLACK_APP_TOKEN: optionalText,
  SLACK_API_URL: httpUrl.default('https://slack.com/api/'),
  DISCORD_APPLICATION_ID: optionalText,
  DISCORD_PUBLIC_KEY: optionalText.refine(
    (value) => value === undefined || /^[0-9a-f]{64}$/i.test(value),
    'must be the 64-character hex public key of the Discord application',
  ),
  DISCORD_BOT_TOKEN: optionalText,
  DISCORD_API_URL: httpUrl.default('https://discord.com/api'),
  DISCORD_GATEWAY: flag,
  DISCORD_GUILD_ID: optionalText,
  WATCH_CRON: z
    .string()
    .trim()
    .refine((value) => value === 'off' || cron.validate(value), "must be a node-cron expression (e.g. '*/10 * * * *') or 'off'")
    .default('*/10 * * * *'),
  /** Longest wait between two polls of a quiet parcel. */
  WATCH_MAX_INTERVAL: z
    .string()
    .trim()
    .default('2h')
    .transform((value, ctx) => {
      const ms = parseDuration(value);
      if (ms === undefined) ctx.addIssue({ code: 'custom', message: "must be a duration such as '90s', '30m' or '2h'" });
      return ms ?? 0;
    }),
  /** Seoul hours when quiet parcels are polled less often (`22-7`), or `off`. */
  WATCH_QUIET_HOURS: z
    .string()
    .trim()
    .default('22-7')
    .transform((value, ctx) => {
      const hours = parseQuietHours(value);
      if (hours === undefined) ctx.addIssue({ code: 'custom', message: "must be 'start-end' hours in Asia/Seoul (e.g. '22-7') or 'off'" });
      return hours ?? null;
    }),
  /** In-process refresh of the harmful-URL feeds (node-cron syntax), or 'off'. */
  URL_LIST_REFRESH: z
    .string()
    .trim()
    .refine((value) => value === 'off' || cron.validate(value), "must be a node-cron expression (e.g. '0 */6 * * *') or 'off'")
    .default('0 */6 * * *'),
  /** Harmful-URL feeds: `name=category:format:url`, comma-separated (unset: the README's defaults); a bad entry is reported and skipped. */
  URL_LIST_FEEDS: optionalText,
  /** Korean smishing (issue 31): the public-data portal's key (odcloud feeds such as KISA's), its API base, short-link expansion. */
  DATA_GO_KR_SERVICE_KEY: optionalText,
  DATA_GO_KR_API_URL: httpUrl.default('https://api.odcloud.kr/api'),
  URL_EXPAND: z
    .enum(['on', 'off'])
    .default('on')
    .transform((value) => value === 'on'),
  /** Extra public URL shorteners whose links are followed (comma-separated host names). */
  URL_EXPAND_SHORTENERS: optionalText.refine(
    (value) => value === undefined || value.split(',').every((host) => /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(host.trim())),
    'must be comma-separated host names (e.g. short.example,go.example)',
  ),
  WEBHOOK_ALLOW_INSECURE: flag,
  /** Issue 40 item 6: re-check live short links on this schedule (node-cron syntax), or 'off'. */
  URL_RESCAN: z
    .string()
    .trim()
    .refine((value) => value === 'off' || cron.validate(value), "must be a node-cron expression (e.g. '0 4 * * *') or 'off'")
    .default('0 4 * * *'),
  /** Issue 36: a MaxMind-format GeoIP country database file (GeoLite2, DB-IP lite) for click statistics. */
  GEOIP_DB: optionalText,
  /** Abuse limits (README "Limits and abuse"). */
  LOGIN_MAX_FAILURES: positiveInt(10),
  LOGIN_MAX_PER_ADDRESS: positiveInt(30),
  SIGNUP_MAX_PER_ADDRESS: positiveInt(10),
  PASSWORD_HASH_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(1),
  // ── Hardening (issue 33): stalled connections ──
  /** A request's headers must arrive within this; else 408 and the connection is closed. */
  HTTP_HEADERS_TIMEOUT_MS: positiveInt(20_000),
  /** The whole request (headers and declared body) must arrive within this; else 408 and closed. */
  HTTP_REQUEST_TIMEOUT_MS: positiveInt(60_000),
  /** An idle keep-alive connection is closed after this. */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: positiveInt(5_000),
  // ── end of hardening ──
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

type Env = z.infer<typeof envSchema>;

/** Every variable the service reads (`.env.example` documents each). */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape);

export type Config = Omit<Env, 'PUBLIC_BASE_URL' | 'SHORT_URL_BASE'> & {
  PUBLIC_BASE_URL: string;
  SHORT_URL_BASE: string;
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment; throws a ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty value (`NAME=` in .env) means "not set": the default applies.
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ''));
  const parsed = envSchema.safeParse(given);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const values = parsed.data;
  const publicBaseUrl = trimSlash(values.PUBLIC_BASE_URL ?? `http://localhost:${values.PORT}`);
  return {
    ...values,
    PUBLIC_BASE_URL: publicBaseUrl,
    SHORT_URL_BASE: trimSlash(values.SHORT_URL_BASE ?? `${publicBaseUrl}/s`),
  };
}

/** Reads `.env` in the working directory when there is one (values already set win). */
export function loadDotEnv(path = '.env'): void {
  try {
    process.loadEnvFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
