import { z } from 'zod';
import { AppError, invalidInput } from './errors.js';
import { koreanIssueMessage } from './validation-messages.js';

/** Korean validation messages for every schema of the service (HTTP and bots alike). */
z.config({ customError: koreanIssueMessage });

/** Largest id of a row (PostgreSQL `integer` identity columns). */
export const MAX_ROW_ID = 2_147_483_647;

/** Parses caller input with an operation's schema; a failure is a 400 naming the field. */
export function parseInput<T extends z.ZodType>(schema: T, raw: unknown): z.output<T> {
  rejectNulCharacters(raw);
  // The issue keeps what was sent, so the English message can tell a missing value from a wrong one.
  const result = schema.safeParse(raw ?? {}, { reportInput: true });
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
