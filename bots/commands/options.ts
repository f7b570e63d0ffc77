import { z } from 'zod';
import { withJosa } from '../../src/korean.js';
import type { BotCommand } from './types.js';

/** Option coercions shared by both doors: Discord sends typed values, Slack sends words. */
export const text = (field: string) => {
  const message = `${withJosa(`'${field}'`, '을/를')} 입력하세요.`;
  return z.string({ error: message }).trim().min(1, message);
};

export const flag = z
  .preprocess((value) => {
    if (typeof value !== 'string') return value;
    return /^(true|1|yes|on|y|watch|public|공개|감시|예|네)$/i.test(value.trim());
  }, z.boolean())
  .optional()
  .default(false);

export const integer = (field: string) =>
  z.coerce
    .number({ error: `${withJosa(`'${field}'`, '은/는')} 숫자여야 합니다.` })
    .int(`${withJosa(`'${field}'`, '은/는')} 정수여야 합니다.`)
    .positive(`${withJosa(`'${field}'`, '은/는')} 1 이상이어야 합니다.`);

/** A command definition, typed by its schema (keeps each file's handler checked). */
export function defineCommand<Schema extends z.ZodType>(command: BotCommand<Schema>): BotCommand<Schema> {
  return command;
}
