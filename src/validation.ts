import { z } from 'zod';
import { invalidInput } from './errors.js';

/**
 * Korean validation messages for every schema of the service (HTTP and bots alike).
 * A missing field gets a plain "필수 항목입니다" instead of zod's "expected string, got undefined".
 */
z.config(z.locales.ko());
z.config({
  customError: (issue) => {
    if (issue.code === 'invalid_type' && issue.input === undefined) return '필수 항목입니다.';
    return undefined;
  },
});

/** Parses caller input with an operation's schema; a failure is a 400 naming the field. */
export function parseInput<T extends z.ZodType>(schema: T, raw: unknown): z.output<T> {
  const result = schema.safeParse(raw ?? {});
  if (!result.success) throw invalidInput(result.error);
  return result.data;
}
