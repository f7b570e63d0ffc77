import { z } from 'zod';

export const MAX_CONTENT_CHARS = 20_000;
export const MAX_MESSAGE_CHARS = 2_000;
export const DEFAULT_LIST_LIMIT = 20;
export const MAX_LIST_LIMIT = 100;
export const ACTIONS = ['chat', 'index', 'list', 'delete', 'clear'] as const;

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
  })
  .superRefine((input, ctx) => {
    const field = REQUIRED[input.action];
    if (field && input[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: '필수 항목입니다.' });
  })
  .transform((input): ChatbotInput => {
    switch (input.action) {
      case 'chat':
        return { action: 'chat', message: input.message! };
      case 'index':
        return { action: 'index', content: input.content! };
      case 'delete':
        return { action: 'delete', id: input.id! };
      case 'list':
        return { action: 'list', offset: input.offset, limit: input.limit };
      case 'clear':
        return { action: 'clear' };
    }
  });

export type ChatbotInput =
  | { action: 'chat'; message: string }
  | { action: 'index'; content: string }
  | { action: 'delete'; id: number }
  | { action: 'list'; offset: number; limit: number }
  | { action: 'clear' };

/** The answer of each action (SPEC §1): one of four shapes. */
export const chatbotOutputSchema = z.union([
  z.object({
    answer: z.string(),
    sources: z.array(z.object({ id: z.number().int(), score: z.number(), start: z.number().int(), end: z.number().int() })),
  }),
  z.object({ message: z.string(), id: z.number().int() }),
  z.object({
    knowledge_list: z.array(z.object({ id: z.number().int(), content: z.string(), created_at: z.string() })),
    total: z.number().int(),
    offset: z.number().int(),
    limit: z.number().int(),
  }),
  z.object({ message: z.string(), deleted: z.number().int() }),
]);
