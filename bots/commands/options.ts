import { z } from 'zod';
import type { BotCommand } from './types.js';

/** Option coercions shared by both doors: Discord sends typed values, Slack sends words. */
export const text = (field: string) => z.string({ error: `'${field}'을(를) 입력하세요.` }).trim().min(1, `'${field}'을(를) 입력하세요.`);

export const flag = z
  .preprocess((value) => {
    if (typeof value !== 'string') return value;
    return /^(true|1|yes|on|y|watch|public|공개|감시|예|네)$/i.test(value.trim());
  }, z.boolean())
  .optional()
  .default(false);

export const integer = (field: string) => z.coerce.number({ error: `'${field}'은(는) 숫자여야 합니다.` }).int(`'${field}'은(는) 정수여야 합니다.`).positive();

/** A command definition, typed by its schema (keeps each file's handler checked). */
export function defineCommand<Schema extends z.ZodType>(command: BotCommand<Schema>): BotCommand<Schema> {
  return command;
}
