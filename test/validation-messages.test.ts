import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AppError } from '../src/errors.js';
import { parseInput } from '../src/validation.js';

/** A validation failure in both languages, as the HTTP door and the bots show it. */
function failure(schema: z.ZodType, input: unknown): { ko: string; en: string } {
  try {
    parseInput(schema, input);
  } catch (error) {
    return { ko: (error as AppError).localized('ko'), en: (error as AppError).localized('en') };
  }
  throw new Error('expected a validation failure');
}

describe('English validation messages say as much as the Korean ones', () => {
  const body = z.object({
    text: z.string().min(1).max(5),
    style: z.enum(['formal', 'casual']),
    limit: z.coerce.number().int().positive(),
    email: z.email(),
    tags: z.array(z.string()).min(1).max(2).optional(),
    code: z.string().length(1).optional(),
  });
  const valid = { text: 'abc', style: 'formal', limit: 1, email: 'a@example.com' };

  it.each([
    [{ text: undefined }, "'text' 필드: 필수 항목입니다. 값을 넣어 주세요.", "'text': This field is required. Please give a value."],
    [{ text: 3 }, "'text' 필드: 문자열이어야 합니다 (보낸 값: 숫자).", "'text': Must be text (sent: a number)."],
    [{ text: '' }, "'text' 필드: 비어 있으면 안 됩니다. 값을 입력하세요.", "'text': Must not be empty. Please give a value."],
    [
      { text: 'abcdefg' },
      "'text' 필드: 5자 이하여야 합니다. 지금은 7자입니다.",
      "'text': Must have at most 5 characters. It has 7 characters.",
    ],
    [{ style: 'rude' }, "'style' 필드: 'formal', 'casual' 중 하나여야 합니다.", "'style': Must be one of 'formal', 'casual'."],
    [{ limit: 'many' }, "'limit' 필드: 숫자로 적어 주세요.", "'limit': Please write it as a number."],
    [
      { limit: 1.5 },
      "'limit' 필드: 정수여야 합니다. 소수점 없이 적어 주세요.",
      "'limit': Must be a whole number. Please write it without a decimal point.",
    ],
    [{ limit: 0 }, "'limit' 필드: 0보다 커야 합니다.", "'limit': Must be more than 0."],
    [{ email: 'nope' }, "'email' 필드: 이메일 주소 형식이 아닙니다.", "'email': Must be an email address."],
    [{ tags: [] }, "'tags' 필드: 하나 이상 있어야 합니다.", "'tags': Must have at least one item."],
    [
      { tags: ['a', 'b', 'c'] },
      "'tags' 필드: 2개 이하여야 합니다. 지금은 3개입니다.",
      "'tags': Must have at most 2 items. It has 3 items.",
    ],
    [{ code: 'ab' }, "'code' 필드: 정확히 1자여야 합니다.", "'code': Must be exactly 1 character."],
  ])('%o', (change, ko, en) => {
    expect(failure(body, { ...valid, ...change })).toEqual({ ko, en });
  });

  it('names what is wrong for the other kinds too', () => {
    expect(failure(z.string().startsWith('https://'), 'ftp://x').en).toBe("Must start with 'https://'.");
    expect(failure(z.number().multipleOf(5), 7).en).toBe('Must be a multiple of 5.');
    expect(failure(z.strictObject({ a: z.string() }), { a: 'x', b: 1, c: 2 }).en).toBe('Unknown fields: b, c.');
    expect(failure(z.literal('chat'), 'talk').en).toBe("Only 'chat' is allowed.");
    expect(failure(z.boolean(), 'yes').en).toBe('Must be true or false (sent: text).');
    expect(failure(z.iso.date(), '22/11/2026').en).toBe('Must be an ISO 8601 date (e.g. 2026-11-22).');
  });
});
