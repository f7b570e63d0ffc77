import { z } from 'zod';

export const MAX_CONTENT_CHARS = 20_000;
export const MAX_MESSAGE_CHARS = 2_000;
export const DEFAULT_LIST_LIMIT = 20;
export const MAX_LIST_LIMIT = 100;
export const ACTIONS = ['chat', 'index', 'list', 'delete', 'clear'] as const;
/** Entries one `index` call may add (`entries`): one charge each. */
export const MAX_BULK_ENTRIES = 100;
/** Of those, files and pages (each read or fetched): the rest must be text. */
export const MAX_BULK_DOCUMENTS = 20;
export const MAX_SCOPE_CHARS = 100;
export const MAX_SOURCE_CHARS = 200;
/** Base64 characters of one file: 10 MB of bytes (read-document.ts MAX_FILE_BYTES). */
const MAX_FILE_BASE64 = Math.ceil((10 * 1024 * 1024) / 3) * 4 + 100;

/** Integers may arrive as digit strings (Slack's text commands, form tools): "12" is 12. */
const integer = (message: string, min: number, max: number) =>
  z
    .union([z.number({ error: message }).int(message), z.string().trim().max(12, message).regex(/^\d+$/, message).transform(Number)], {
      error: message,
    })
    .pipe(z.number().min(min, message).max(max, message));

const text = (max: number, empty: string, tooLong: string) =>
  z
    .string()
    .trim()
    .min(1, empty)
    .refine((value) => [...value].length <= max, tooLong)
    .meta({ maxLength: max });

/** Which field each action needs (SPEC §1): missing, it is a 400 naming that field. */
const REQUIRED: Partial<Record<(typeof ACTIONS)[number], 'message' | 'content' | 'id'>> = {
  chat: 'message',
  index: 'content',
  delete: 'id',
};

/** A channel, a Discord server or any name the caller gives: entries of a scope answer only there. */
const scopeName = z
  .string()
  .trim()
  .min(1, 'scope가 비어 있습니다.')
  .max(MAX_SCOPE_CHARS, `scope는 ${MAX_SCOPE_CHARS}자 이하여야 합니다.`)
  .regex(/^[^\p{Cc}]+$/u, 'scope에 제어 문자를 넣을 수 없습니다.');

/** One scope, or (the bots: a channel and its server) a few: the common entries are searched with them ([]: those alone). */
const scopeFilter = z.union([scopeName, z.array(scopeName).max(4, 'scope는 4개까지 줄 수 있습니다.')]);

const sourceName = z.string().trim().min(1).max(MAX_SOURCE_CHARS, `source는 ${MAX_SOURCE_CHARS}자 이하여야 합니다.`);
const sourceUrl = z.url({ protocol: /^https?$/, error: 'source_url은 http(s) 주소여야 합니다.' }).max(2000);

export const fileSchema = z.object(
  {
    name: z
      .string({ error: '파일 이름(file.name)을 넣어 주세요.' })
      .trim()
      .min(1, '파일 이름(file.name)을 넣어 주세요.')
      .max(MAX_SOURCE_CHARS),
    base64: z
      .string({ error: '파일 내용(file.base64)을 넣어 주세요.' })
      .min(1, '파일 내용(file.base64)을 넣어 주세요.')
      .max(MAX_FILE_BASE64, '파일은 10MB까지 읽을 수 있습니다.')
      .transform((value) => value.replace(/^data:[^;,]*;base64,/, ''))
      .refine((value) => /^[A-Za-z0-9+/=\s_-]*$/.test(value), '파일 내용(file.base64)이 Base64가 아닙니다.'),
  },
  { error: 'file은 {name, base64} 객체여야 합니다.' },
);

const pageUrl = z.string({ error: 'url은 문자열이어야 합니다.' }).trim().min(1).max(2000, 'url은 2,000자 이하여야 합니다.');

/** One entry to add: its text, a file or a page, with where it answers and what it is called. */
const entrySchema = z
  .object({
    content: text(
      MAX_CONTENT_CHARS,
      '저장할 내용(content)을 입력하세요.',
      `내용은 ${MAX_CONTENT_CHARS.toLocaleString('en-US')}자 이하여야 합니다.`,
    ).optional(),
    file: fileSchema.optional(),
    url: pageUrl.optional(),
    scope: scopeName.optional(),
    source: sourceName.optional(),
    source_url: sourceUrl.optional(),
  })
  .superRefine((entry, ctx) => {
    const given = [entry.content, entry.file, entry.url].filter((value) => value !== undefined).length;
    if (given !== 1) ctx.addIssue({ code: 'custom', path: ['content'], message: 'content, file, url 중 하나만 넣어 주세요.' });
  });

export type EntryInput = z.output<typeof entrySchema>;

/**
 * SPEC §1: one path, five actions, one flat body (as SPEC documents it); the action decides
 * which field is required. Parsed into one variant per action for the operation.
 */
export const chatbotSchema = z
  .object({
    action: z.enum(ACTIONS, { error: `action은 ${ACTIONS.join(', ')} 중 하나여야 합니다.` }),
    message: text(
      MAX_MESSAGE_CHARS,
      '질문(message)을 입력하세요.',
      `질문은 ${MAX_MESSAGE_CHARS.toLocaleString('en-US')}자 이하여야 합니다.`,
    ).optional(),
    content: text(
      MAX_CONTENT_CHARS,
      '저장할 내용(content)을 입력하세요.',
      `내용은 ${MAX_CONTENT_CHARS.toLocaleString('en-US')}자 이하여야 합니다.`,
    ).optional(),
    id: integer('id는 1 이상의 정수여야 합니다.', 1, 2_147_483_647).optional(),
    offset: integer('offset은 0 이상의 정수여야 합니다.', 0, 2_147_483_647).default(0),
    limit: integer(`limit은 1~${MAX_LIST_LIMIT} 사이의 정수여야 합니다.`, 1, MAX_LIST_LIMIT).default(DEFAULT_LIST_LIMIT),
    file: fileSchema.optional(),
    url: pageUrl.optional(),
    entries: z
      .array(entrySchema, { error: 'entries는 배열이어야 합니다.' })
      .min(1, 'entries가 비어 있습니다.')
      .max(MAX_BULK_ENTRIES, `entries는 한 번에 ${MAX_BULK_ENTRIES}개까지 넣을 수 있습니다.`)
      .refine(
        (entries) => entries.filter((entry) => entry.file || entry.url).length <= MAX_BULK_DOCUMENTS,
        `entries 가운데 파일과 페이지(file, url)는 한 번에 ${MAX_BULK_DOCUMENTS}개까지입니다.`,
      )
      .optional(),
    scope: scopeFilter.optional(),
    source: sourceName.optional(),
    source_url: sourceUrl.optional(),
  })
  .superRefine((input, ctx) => {
    const field = REQUIRED[input.action];
    const indexGiven = input.action === 'index' && [input.file, input.url, input.entries].some((value) => value !== undefined);
    if (field && input[field] === undefined && !indexGiven) ctx.addIssue({ code: 'custom', path: [field], message: '필수 항목입니다.' });
    if (input.action === 'index') {
      const given = [input.content, input.file, input.url, input.entries].filter((value) => value !== undefined).length;
      if (given > 1) ctx.addIssue({ code: 'custom', path: ['content'], message: 'content, file, url, entries 중 하나만 넣어 주세요.' });
      if (Array.isArray(input.scope))
        ctx.addIssue({ code: 'custom', path: ['scope'], message: '저장할 때 scope는 하나만 줄 수 있습니다.' });
    }
  })
  .transform((input): ChatbotInput => {
    switch (input.action) {
      case 'chat':
        return { action: 'chat', message: input.message!, scopes: scopesOf(input.scope) };
      case 'index': {
        if (input.entries) return { action: 'index', entries: input.entries, bulk: true };
        const scope = typeof input.scope === 'string' ? input.scope : undefined;
        const entry = {
          content: input.content,
          file: input.file,
          url: input.url,
          scope,
          source: input.source,
          source_url: input.source_url,
        };
        return { action: 'index', entries: [entry], bulk: false };
      }
      case 'delete':
        return { action: 'delete', id: input.id! };
      case 'list':
        return {
          action: 'list',
          offset: input.offset,
          limit: input.limit,
          scopes: input.scope === undefined ? undefined : scopesOf(input.scope),
        };
      case 'clear':
        return { action: 'clear' };
    }
  });

function scopesOf(scope: string | string[] | undefined): string[] {
  return scope === undefined ? [] : typeof scope === 'string' ? [scope] : [...new Set(scope)];
}

export type ChatbotInput =
  /** `scopes`: the entries of these scopes are searched with the common ones (none: common entries only). */
  | { action: 'chat'; message: string; scopes: string[] }
  /** `bulk`: sent as `entries` (the answer lists every id). */
  | { action: 'index'; entries: EntryInput[]; bulk: boolean }
  | { action: 'delete'; id: number }
  /** `scopes` undefined: every entry of the account; else those scopes' and the common ones. */
  | { action: 'list'; offset: number; limit: number; scopes?: string[] }
  | { action: 'clear' };

const sourceInfo = {
  /** The entry's source name (file name, page title, thread) and link, null when it has none. */
  source: z.string().nullable(),
  url: z.string().nullable(),
};

/** The answer of each action (SPEC §1): one of four shapes. */
export const chatbotOutputSchema = z.union([
  z.object({
    answer: z.string(),
    sources: z.array(z.object({ id: z.number().int(), score: z.number(), start: z.number().int(), end: z.number().int(), ...sourceInfo })),
    /** The text of the first source's span: the passage the answer rests on (absent when declined). */
    passage: z.string().optional(),
  }),
  z.object({ message: z.string(), id: z.number().int(), source: z.string().nullable().optional(), chars: z.number().int().optional() }),
  z.object({
    message: z.string(),
    ids: z.array(z.number().int()),
    entries: z.array(z.object({ id: z.number().int(), source: z.string().nullable(), chars: z.number().int() })),
  }),
  z.object({
    knowledge_list: z.array(
      z.object({
        id: z.number().int(),
        content: z.string(),
        created_at: z.string(),
        ...sourceInfo,
        scope: z.string().nullable(),
      }),
    ),
    total: z.number().int(),
    offset: z.number().int(),
    limit: z.number().int(),
  }),
  z.object({ message: z.string(), deleted: z.number().int() }),
]);
