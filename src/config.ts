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
  // ── Metrics (issue 48; docs/operating.md) ──
  /** Bearer token `GET /metrics` requires on the main port; without it and without METRICS_PORT, /metrics is off. */
  METRICS_TOKEN: optionalText.refine(
    (value) => value === undefined || /^[\x21-\x7e]{16,}$/.test(value),
    'must be at least 16 printable characters without spaces',
  ),
  /** Serves `/metrics` alone on this port (on HOST; keep it private); 0 picks a free one. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
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
  /** The message model's metadata file (its `.bin` weights beside it); unset: the model shipped in src/operations/url-scan/model/. */
  MESSAGE_MODEL: optionalText.refine(
    (value) => value === undefined || value.endsWith('.json'),
    'must name the model metadata file (…/message-model.json)',
  ),
  URL_EXPAND_SHORTENERS: optionalText.refine(
    (value) => value === undefined || value.split(',').every((host) => /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(host.trim())),
    'must be comma-separated host names (e.g. short.example,go.example)',
  ),
  WEBHOOK_ALLOW_INSECURE: flag,
  /** Issue 48: invitation mail over SMTP (`smtp://user:pass@host:port`, `smtps://` for TLS); unset: the portal shows the link only. */
  SMTP_URL: optionalText.refine(
    (value) => value === undefined || (/^smtps?:\/\/[^\s]+$/i.test(value) && URL.canParse(value) && new URL(value).hostname !== ''),
    'must be an smtp:// or smtps:// URL such as smtp://user:pass@mail.example.kr:587',
  ),
  /** The invitation mail's sender; unset: `AI Utility Hub <no-reply@host of PUBLIC_BASE_URL>`. */
  SMTP_FROM: optionalText.refine(
    (value) => value === undefined || /^(?:[^<>@\r\n]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/.test(value),
    "must be an e-mail address, or 'Name <address>'",
  ),
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
  // ── Portal (issue 35) ──
  /** `production` keeps the log JSON even in a terminal; otherwise a terminal gets readable lines (pino-pretty). */
  NODE_ENV: z.enum(['development', 'production', 'test']).optional(),
  /** Accounts (comma-separated e-mails) that see operator detail in the portal: feeds, LLM, tracker. */
  ADMIN_EMAILS: z
    .string()
    .trim()
    .default('')
    .refine(
      (value) => value === '' || value.split(',').every((email) => /^[^\s@,]+@[^\s@,]+$/.test(email.trim())),
      'must be comma-separated e-mail addresses',
    )
    .transform((value) =>
      value
        .split(',')
        .map((email) => email.trim().toLowerCase())
        .filter(Boolean),
    ),
  /** Origins allowed to call the API from a browser (CORS); unset: no CORS headers at all. */
  CORS_ORIGINS: z
    .string()
    .trim()
    .default('')
    .refine(
      (value) => value === '' || value === '*' || value.split(',').every((origin) => /^https?:\/\/[^\s/,]+\/?$/i.test(origin.trim())),
      "must be '*' or comma-separated origins such as https://app.example.kr (scheme and host, no path)",
    )
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim().replace(/\/$/, ''))
        .filter(Boolean),
    ),
});

type Env = z.infer<typeof envSchema>;

/** Every variable the service reads (`.env.example` documents each). */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape);

export type Config = Omit<Env, 'PUBLIC_BASE_URL' | 'SHORT_URL_BASE' | 'SMTP_FROM'> & {
  PUBLIC_BASE_URL: string;
  SHORT_URL_BASE: string;
  SMTP_FROM: string;
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment; throws a ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty value (`NAME=` in .env) means "not set": the default applies.
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ''));
  const parsed = envSchema.safeParse(given);
  if (!parsed.success) throw new ConfigError(describeProblems(parsed.error.issues, given));
  const values = parsed.data;
  if (values.METRICS_PORT !== undefined && values.METRICS_PORT !== 0 && values.METRICS_PORT === values.PORT)
    throw new ConfigError(describeProblems([{ path: ['METRICS_PORT'], code: 'custom', message: 'must differ from PORT' }], given));
  const publicBaseUrl = trimSlash(values.PUBLIC_BASE_URL ?? `http://localhost:${values.PORT}`);
  return {
    ...values,
    PUBLIC_BASE_URL: publicBaseUrl,
    SHORT_URL_BASE: trimSlash(values.SHORT_URL_BASE ?? `${publicBaseUrl}/s`),
    SMTP_FROM: values.SMTP_FROM ?? `AI Utility Hub <no-reply@${new URL(publicBaseUrl).hostname}>`,
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

/** The English messages of this file's own rules, in Korean. */
const KOREAN: Record<string, string> = {
  'must be an http(s) URL': 'http:// 또는 https:// 로 시작하는 URL이어야 합니다',
  'must start with postgres:// or postgresql://': 'postgres:// 또는 postgresql:// 로 시작해야 합니다',
  'must be the 64-character hex public key of the Discord application': 'Discord 애플리케이션의 64자리 16진수 공개 키여야 합니다',
  "must be a node-cron expression (e.g. '*/10 * * * *') or 'off'": "node-cron 식(예: '*/10 * * * *') 또는 'off'여야 합니다",
  "must be a node-cron expression (e.g. '0 */6 * * *') or 'off'": "node-cron 식(예: '0 */6 * * *') 또는 'off'여야 합니다",
  "must be a duration such as '90s', '30m' or '2h'": "'90s', '30m', '2h' 같은 기간이어야 합니다",
  "must be 'start-end' hours in Asia/Seoul (e.g. '22-7') or 'off'": "한국 시간 '시작-끝' 시각(예: '22-7') 또는 'off'여야 합니다",
  'must be comma-separated host names (e.g. short.example,go.example)':
    '쉼표로 구분한 호스트 이름이어야 합니다 (예: short.example,go.example)',
  'must be comma-separated e-mail addresses': '쉼표로 구분한 이메일 주소여야 합니다',
  'must be an smtp:// or smtps:// URL such as smtp://user:pass@mail.example.kr:587':
    'smtp://user:pass@mail.example.kr:587 같은 smtp:// 또는 smtps:// URL이어야 합니다',
  "must be an e-mail address, or 'Name <address>'": "이메일 주소 또는 '이름 <주소>' 형식이어야 합니다",
  'must be at least 16 printable characters without spaces': '공백 없이 16자 이상의 문자여야 합니다',
  'must differ from PORT': 'PORT와 다른 포트여야 합니다',
  "must be '*' or comma-separated origins such as https://app.example.kr (scheme and host, no path)":
    "'*' 또는 https://app.example.kr 처럼 쉼표로 구분한 출처(스킴과 호스트, 경로 없이)여야 합니다",
};

interface Problem {
  path: PropertyKey[];
  code: string;
  message: string;
  minimum?: unknown;
  maximum?: unknown;
  values?: unknown[];
  expected?: unknown;
}

/** Every bad variable, each in Korean and in English (the whole list in each language), with the value given. */
export function describeProblems(issues: readonly Problem[], given: Record<string, string | undefined>): string {
  const lines = issues.map((issue) => {
    const name = issue.path.map(String).join('.');
    const value = given[name];
    const shown = value === undefined ? '' : name.match(/KEY|SECRET|TOKEN|PASSWORD|DATABASE_URL|SMTP_URL/) ? '' : ` ('${value}')`;
    return { name, shown, ...messagesOf(issue) };
  });
  return [
    '설정이 올바르지 않습니다 (.env 또는 환경 변수):',
    ...lines.map((line) => `  ${line.name}${line.shown}: ${line.ko}`),
    'Invalid configuration (.env or environment variables):',
    ...lines.map((line) => `  ${line.name}${line.shown}: ${line.en}`),
  ].join('\n');
}

function messagesOf(issue: Problem): { ko: string; en: string } {
  if (issue.code === 'custom') return { ko: KOREAN[issue.message] ?? issue.message, en: issue.message };
  if (issue.code === 'too_small')
    return { ko: `${String(issue.minimum)} 이상이어야 합니다`, en: `must be at least ${String(issue.minimum)}` };
  if (issue.code === 'too_big') return { ko: `${String(issue.maximum)} 이하여야 합니다`, en: `must be at most ${String(issue.maximum)}` };
  if (issue.code === 'invalid_value' && issue.values) {
    const values = issue.values.map((value) => `'${String(value)}'`).join(', ');
    return { ko: `다음 중 하나여야 합니다: ${values}`, en: `must be one of ${values}` };
  }
  if (issue.code === 'invalid_type' && issue.expected === 'int') return { ko: '정수여야 합니다', en: 'must be a whole number' };
  if (issue.code === 'invalid_type' && issue.expected === 'number') return { ko: '숫자여야 합니다', en: 'must be a number' };
  return { ko: '값이 올바르지 않습니다', en: 'is not a valid value' };
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
