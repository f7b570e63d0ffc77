import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { periodSeconds } from '../api/middleware/quota-headers.js';
import { koreanDateTime, nextSeoulMonth } from '../src/seoul-time.js';
import { withJosa } from '../src/korean.js';
import { parseInput } from '../src/validation.js';
import { AppError } from '../src/errors.js';

function messageOf(schema: z.ZodType, input: unknown): string {
  try {
    parseInput(schema, input);
  } catch (error) {
    return (error as AppError).message;
  }
  throw new Error('expected a validation failure');
}

describe('Korean particles', () => {
  it.each([
    ['사과', '이/가', '사과가'],
    ['책', '을/를', '책을'],
    ['서울', '으로/로', '서울로'],
    ['7', '이/가', '7이'], // 칠
    ['12', '은/는', '12는'], // 십이
    ['10', '을/를', '10을'], // 십
    ['URL', '으로/로', 'URL로'], // 유알엘
    ['API', '을/를', 'API를'], // 에이피아이
    ["'카카오뱅크'", '와/과', "'카카오뱅크'와"],
    ["'naver'", '이/가', "'naver'가"],
  ] as const)('%s + %s → %s', (word, particle, expected) => {
    expect(withJosa(word, particle)).toBe(expected);
  });
});

describe('validation messages', () => {
  const body = z.object({
    text: z.string().min(1).max(5),
    style: z.enum(['formal', 'casual']),
    limit: z.coerce.number().int().positive(),
    email: z.email(),
  });
  const valid = { text: 'abc', style: 'formal', limit: 1, email: 'a@example.com' };

  it('names the field and says what to send, in Korean that reads as written', () => {
    expect(messageOf(body, { ...valid, text: undefined })).toBe("'text' 필드: 필수 항목입니다. 값을 넣어 주세요.");
    expect(messageOf(body, { ...valid, text: 3 })).toBe("'text' 필드: 문자열이어야 합니다 (보낸 값: 숫자).");
    expect(messageOf(body, { ...valid, text: '' })).toBe("'text' 필드: 비어 있으면 안 됩니다. 값을 입력하세요.");
    expect(messageOf(body, { ...valid, text: 'abcdefg' })).toBe("'text' 필드: 5자 이하여야 합니다. 지금은 7자입니다.");
    expect(messageOf(body, { ...valid, style: 'rude' })).toBe("'style' 필드: 'formal', 'casual' 중 하나여야 합니다.");
    expect(messageOf(body, { ...valid, limit: 'many' })).toBe("'limit' 필드: 숫자로 적어 주세요.");
    expect(messageOf(body, { ...valid, limit: 1.5 })).toBe("'limit' 필드: 정수여야 합니다. 소수점 없이 적어 주세요.");
    expect(messageOf(body, { ...valid, limit: 0 })).toBe("'limit' 필드: 0보다 커야 합니다.");
    expect(messageOf(body, { ...valid, email: 'nope' })).toBe("'email' 필드: 이메일 주소 형식이 아닙니다.");
  });

  it('never shows the library template or English', () => {
    const schemas: Array<[z.ZodType, unknown]> = [
      [z.array(z.string()).min(2), ['a']],
      [z.string().startsWith('https://'), 'ftp://x'],
      [z.number().multipleOf(5), 7],
      [z.strictObject({ a: z.string() }), { a: 'x', b: 1 }],
      [z.union([z.string(), z.number()]), true],
      [z.literal('chat'), 'talk'],
      [z.boolean(), 'yes'],
      [z.object({ a: z.string() }), 'text'],
    ];
    for (const [schema, input] of schemas) {
      const message = messageOf(schema, input);
      expect(message).not.toMatch(/\((?:이|가|을|를|은|는|와|과|으)\)|또는|[a-z]+이 |NaN|Invalid|expected/);
      expect(message).toMatch(/[가-힣]/);
    }
    expect(messageOf(z.string().startsWith('https://'), 'ftp://x')).toBe("'https://'로 시작해야 합니다.");
  });
});

describe('dates and quota windows', () => {
  it('writes an instant as Koreans do, in Korea time', () => {
    expect(koreanDateTime(new Date('2026-11-30T15:00:00Z'))).toBe('2026년 12월 1일(화) 00:00');
    expect(koreanDateTime(new Date('2026-11-22T03:04:00Z'))).toBe('2026년 11월 22일(일) 12:04');
  });

  it('gives the RateLimit-Policy window of the real Seoul month', () => {
    const days = (now: string) => periodSeconds(nextSeoulMonth(new Date(now))) / 86400;
    expect(days('2026-11-22T03:00:00Z')).toBe(30); // November
    expect(days('2026-12-31T16:00:00Z')).toBe(31); // 1 January in Seoul already
    expect(days('2028-02-10T00:00:00Z')).toBe(29); // leap February
    expect(days('2026-10-31T14:59:00Z')).toBe(31); // still October in Seoul
  });
});

describe('English for English-locale users', () => {
  const body = z.object({ text: z.string().min(1).max(5), style: z.enum(['formal', 'casual']) });
  function errorOf(input: unknown): AppError {
    try {
      parseInput(body, input);
    } catch (error) {
      return error as AppError;
    }
    throw new Error('expected a validation failure');
  }

  it('gives a validation failure in both languages, and the detail without the field for the bots', () => {
    const tooLong = errorOf({ text: 'abcdefg', style: 'formal' });
    expect(tooLong.localized('ko')).toBe("'text' 필드: 5자 이하여야 합니다. 지금은 7자입니다.");
    expect(tooLong.localized('en')).toBe("'text': Must have at most 5 characters. It has 7 characters.");
    expect(tooLong.detail).toEqual({
      ko: '5자 이하여야 합니다. 지금은 7자입니다.',
      en: 'Must have at most 5 characters. It has 7 characters.',
    });
    expect(tooLong.extra).toEqual({ field: 'text' });
    expect(errorOf({ text: 'a', style: 'rude' }).detail?.en).toBe("Must be one of 'formal', 'casual'.");
  });

  it('falls back to a plain English line per code when the raising site gave none', () => {
    const error = new AppError('NOT_FOUND', '없습니다.');
    expect(error.localized('en')).toBe('Not found.');
    expect(error.en('No such entry.').localized('en')).toBe('No such entry.');
    expect(error.localized('ko')).toBe('없습니다.');
  });
});

describe('HTTP errors in English on request', () => {
  // The app starts in the hook (60 s), not in the test (30 s): under load its start alone took
  // more than the test's budget (issue 33 item 9).
  let app: Awaited<ReturnType<typeof import('./helpers/app.js').startTestApp>>;
  beforeAll(async () => {
    const { startTestApp } = await import('./helpers/app.js');
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  it('answers Accept-Language: en callers in English, everyone else in Korean', async () => {
    const user = await app.signUp();
    const send = (language?: string) =>
      fetch(`${app.url}/api/v1/url/shorten`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': user.apiKey, ...(language ? { 'accept-language': language } : {}) },
        body: JSON.stringify({ url: 'ftp://example.com/file' }),
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as { error: string; field: string } }));
    const english = await send('en-US,en;q=0.9,ko;q=0.8');
    expect(english).toMatchObject({
      status: 400,
      body: { field: 'url', error: "'url': Not a valid URL starting with http:// or https://." },
    });
    expect((await send()).body.error).toBe("'url' 필드: http:// 또는 https://로 시작하는 올바른 URL이 아닙니다.");
    const missing = await fetch(`${app.url}/api/v1/url/shorten`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': user.apiKey, 'accept-language': 'en' },
      body: '{}',
    });
    expect(await missing.json()).toMatchObject({ error: "'url': This field is required. Please give a value." });
    expect((await send('ko-KR,ko;q=0.9,en;q=0.8')).body.error).toMatch(/^'url' 필드/);
  });
});
