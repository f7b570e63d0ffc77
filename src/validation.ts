import { z } from 'zod';
import { AppError, invalidInput } from './errors.js';

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

/** Largest id of a row (PostgreSQL `integer` identity columns). */
export const MAX_ROW_ID = 2_147_483_647;

/** Parses caller input with an operation's schema; a failure is a 400 naming the field. */
export function parseInput<T extends z.ZodType>(schema: T, raw: unknown): z.output<T> {
  rejectNulCharacters(raw);
  const result = schema.safeParse(raw ?? {});
  if (!result.success) throw invalidInput(result.error);
  return result.data;
}

/**
 * PostgreSQL text cannot hold U+0000: a NUL anywhere in caller input would fail the query as a
 * 500. It is never meaningful in what this service stores, so it is the caller's mistake: 400.
 */
export function rejectNulCharacters(raw: unknown): void {
  const field = nulPath(raw, [], 0);
  if (field === undefined) return;
  const name = field.length > 0 ? field.join('.') : undefined;
  const reason = '널 문자(\\u0000)는 사용할 수 없습니다.';
  throw new AppError('INVALID_REQUEST', name ? `'${name}' 필드: ${reason}` : reason, name ? { field: name } : {});
}

function nulPath(value: unknown, path: Array<string | number>, depth: number): Array<string | number> | undefined {
  if (typeof value === 'string') return value.includes('\0') ? path : undefined;
  if (depth > 32 || value === null || typeof value !== 'object') return undefined;
  const entries: Array<[string | number, unknown]> = Array.isArray(value)
    ? value.map((item: unknown, index) => [index, item])
    : Object.entries(value);
  for (const [key, item] of entries) {
    const found = String(key).includes('\0') ? [...path, key] : nulPath(item, [...path, key], depth + 1);
    if (found) return found;
  }
  return undefined;
}
