import type { z } from 'zod';
import { endsWithBatchim, withJosa } from './korean.js';
import { jsonKind, quote, type JsonKind } from './validation-values.js';

/**
 * The service's own Korean message for every kind of zod issue (zod's bundled Korean locale
 * reads as a template: `"a"또는 "b"`, `number이`, `NaN`). A message a schema gives itself wins;
 * this map speaks for everything else. The door adds the field name (src/errors.ts).
 */
type Issue = Parameters<z.core.$ZodErrorMap>[0];

const TYPE_NAMES: Record<string, string> = {
  string: '문자열',
  number: '숫자',
  int: '정수',
  bigint: '정수',
  boolean: 'true나 false',
  object: 'JSON 객체',
  array: '배열',
  tuple: '배열',
  record: 'JSON 객체',
  date: '날짜',
  null: 'null',
  undefined: '빈 값',
  nan: '숫자가 아닌 값',
  file: '파일',
};

const FORMAT_NAMES: Record<string, string> = {
  email: '이메일 주소',
  url: 'URL',
  uuid: 'UUID',
  datetime: 'ISO 8601 날짜·시간(예: 2026-11-22T09:00:00+09:00)',
  date: 'ISO 8601 날짜(예: 2026-11-22)',
  time: 'ISO 8601 시각(예: 09:00:00)',
  duration: 'ISO 8601 기간(예: PT30M)',
  ipv4: 'IPv4 주소',
  ipv6: 'IPv6 주소',
  base64: 'base64 문자열',
  base64url: 'base64url 문자열',
  jwt: 'JWT',
  json_string: 'JSON 문자열',
  emoji: '이모지',
};

/** `X이어야 합니다` / `X여야 합니다`: the copula follows the word's last sound. */
function mustBe(word: string): string {
  return `${word}${endsWithBatchim(word) ? '이어야' : '여야'} 합니다.`;
}

/** How a received value is named in a message: its JSON type, never its content. */
const RECEIVED: Record<JsonKind, string> = {
  null: 'null',
  list: '배열',
  'not-a-number': '숫자가 아닌 값',
  number: '숫자',
  text: '문자열',
  boolean: 'true/false',
  object: 'JSON 객체',
  unknown: '알 수 없는 값',
};
const received = (input: unknown) => RECEIVED[jsonKind(input)];

function sizeUnit(origin: string): { unit: string; what: string } | undefined {
  if (origin === 'string') return { unit: '자', what: '글자 수' };
  if (origin === 'array' || origin === 'set' || origin === 'map') return { unit: '개', what: '항목 수' };
  if (origin === 'file') return { unit: '바이트', what: '파일 크기' };
  return undefined;
}

function tooSmall(issue: Extract<Issue, { code: 'too_small' }>): string {
  const min = issue.minimum.toString();
  const size = sizeUnit(issue.origin);
  if (size && issue.exact) return `정확히 ${min}${size.unit}여야 합니다.`;
  if (issue.origin === 'string' && Number(min) <= 1) return '비어 있으면 안 됩니다. 값을 입력하세요.';
  if (size && Number(min) <= 1) return `하나 이상 있어야 합니다.`;
  if (size) return `${min}${size.unit} 이상이어야 합니다.`;
  if (issue.origin === 'date') return `${min} 이후여야 합니다.`;
  return issue.inclusive ? `${min} 이상이어야 합니다.` : `${min}보다 커야 합니다.`;
}

function tooBig(issue: Extract<Issue, { code: 'too_big' }>): string {
  const max = issue.maximum.toString();
  const size = sizeUnit(issue.origin);
  if (size && issue.exact) return `정확히 ${max}${size.unit}여야 합니다.`;
  if (size) {
    const length = typeof issue.input === 'string' || Array.isArray(issue.input) ? issue.input.length : undefined;
    return `${max}${size.unit} 이하여야 합니다.${length === undefined ? '' : ` 지금은 ${length}${size.unit}입니다.`}`;
  }
  if (issue.origin === 'date') return `${max} 이전이어야 합니다.`;
  return issue.inclusive ? `${max} 이하여야 합니다.` : `${max}보다 작아야 합니다.`;
}

function invalidFormat(issue: Extract<Issue, { code: 'invalid_format' }>): string {
  const details = issue as Record<string, unknown>;
  switch (issue.format) {
    case 'starts_with':
      return `${withJosa(quote(details.prefix), '으로/로')} 시작해야 합니다.`;
    case 'ends_with':
      return `${withJosa(quote(details.suffix), '으로/로')} 끝나야 합니다.`;
    case 'includes':
      return `${withJosa(quote(details.includes), '을/를')} 포함해야 합니다.`;
    case 'regex':
      return '형식이 올바르지 않습니다.';
    default: {
      const name = FORMAT_NAMES[issue.format];
      return name ? `${name} 형식이 아닙니다.` : '형식이 올바르지 않습니다.';
    }
  }
}

/** The Korean message for one issue (installed with `z.config({ customError })`). */
export function koreanIssueMessage(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return '필수 항목입니다. 값을 넣어 주세요.';
      const expected = TYPE_NAMES[issue.expected] ?? issue.expected;
      if (issue.expected === 'number' && Number.isNaN(issue.input)) return '숫자로 적어 주세요.';
      if (issue.expected === 'int' && typeof issue.input === 'number') return '정수여야 합니다. 소수점 없이 적어 주세요.';
      return `${mustBe(expected).slice(0, -1)} (보낸 값: ${received(issue.input)}).`;
    }
    case 'invalid_value': {
      const values = issue.values.map(quote);
      if (values.length === 1) return `${values[0]}만 쓸 수 있습니다.`;
      return `${values.join(', ')} 중 하나여야 합니다.`;
    }
    case 'too_small':
      return tooSmall(issue);
    case 'too_big':
      return tooBig(issue);
    case 'invalid_format':
      return invalidFormat(issue);
    case 'not_multiple_of':
      return `${issue.divisor}의 배수여야 합니다.`;
    case 'unrecognized_keys':
      return `알 수 없는 필드입니다: ${issue.keys.join(', ')}`;
    case 'invalid_union':
      return '허용되는 형식이 아닙니다.';
    case 'invalid_key':
      return '키가 올바르지 않습니다.';
    case 'invalid_element':
      return '항목 중에 올바르지 않은 값이 있습니다.';
    default:
      return '값이 올바르지 않습니다.';
  }
}

export { englishIssueMessage } from './validation-messages-en.js';
