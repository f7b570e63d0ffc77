import type { z } from 'zod';
import { jsonKind, quote, type JsonKind } from './validation-values.js';

/**
 * The English twin of koreanIssueMessage (validation-messages.ts), branch for branch, for
 * `Accept-Language: en` callers and English-locale bot users. It sees the finished issue, so it
 * tells a missing value from a wrong one only when the issue carries its `input` (parse with
 * `{ reportInput: true }`, as parseInput does); the door adds the field name (src/errors.ts).
 * A schema's own Korean message has no English twin unless the issue carries one in
 * `params.en` (`ctx.addIssue({ …, params: { en } })`).
 */
type Issue = z.core.$ZodIssue;

const TYPE_NAMES: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  boolean: 'true or false',
  object: 'a JSON object',
  array: 'a list',
  tuple: 'a list',
  record: 'a JSON object',
  date: 'a date',
  null: 'null',
  undefined: 'empty',
  nan: 'not a number',
  file: 'a file',
};

const FORMAT_NAMES: Record<string, string> = {
  email: 'an email address',
  url: 'a URL',
  uuid: 'a UUID',
  datetime: 'an ISO 8601 date and time (e.g. 2026-11-22T09:00:00+09:00)',
  date: 'an ISO 8601 date (e.g. 2026-11-22)',
  time: 'an ISO 8601 time (e.g. 09:00:00)',
  duration: 'an ISO 8601 duration (e.g. PT30M)',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  base64: 'a base64 string',
  base64url: 'a base64url string',
  jwt: 'a JWT',
  json_string: 'a JSON string',
  emoji: 'an emoji',
};

/** `1 character`, `2 characters`: the unit of a size limit, by what is measured. */
const UNITS: Record<string, [string, string]> = {
  string: ['character', 'characters'],
  array: ['item', 'items'],
  set: ['item', 'items'],
  map: ['item', 'items'],
  file: ['byte', 'bytes'],
};

function count(n: number | bigint | string, origin: string): string | undefined {
  const unit = UNITS[origin];
  if (!unit) return undefined;
  return `${n} ${Number(n) === 1 ? unit[0] : unit[1]}`;
}

/** How a received value is named: its JSON type, never its content. */
const RECEIVED: Record<JsonKind, string> = {
  null: 'null',
  list: 'a list',
  'not-a-number': 'not a number',
  number: 'a number',
  text: 'text',
  boolean: 'true/false',
  object: 'a JSON object',
  unknown: 'an unknown value',
};
const received = (input: unknown) => RECEIVED[jsonKind(input)];

function invalidType(issue: Extract<Issue, { code: 'invalid_type' }>): string {
  const expected = TYPE_NAMES[issue.expected] ?? issue.expected;
  if (!('input' in issue)) return `Must be ${expected}.`;
  const input = issue.input;
  if (input === undefined) return 'This field is required. Please give a value.';
  if (issue.expected === 'number' && Number.isNaN(input)) return 'Please write it as a number.';
  if (issue.expected === 'int' && typeof input === 'number') return 'Must be a whole number. Please write it without a decimal point.';
  return `Must be ${expected} (sent: ${received(input)}).`;
}

function tooSmall(issue: Extract<Issue, { code: 'too_small' }>): string {
  const min = issue.minimum.toString();
  const size = count(issue.minimum, issue.origin);
  if (size && issue.exact) return `Must be exactly ${size}.`;
  if (issue.origin === 'string' && Number(min) <= 1) return 'Must not be empty. Please give a value.';
  if (size && Number(min) <= 1) return `Must have at least one ${UNITS[issue.origin]?.[0]}.`;
  if (size) return `Must have at least ${size}.`;
  if (issue.origin === 'date') return `Must be ${min} or later.`;
  return issue.inclusive ? `Must be at least ${min}.` : `Must be more than ${min}.`;
}

function tooBig(issue: Extract<Issue, { code: 'too_big' }>): string {
  const max = issue.maximum.toString();
  const size = count(issue.maximum, issue.origin);
  if (size && issue.exact) return `Must be exactly ${size}.`;
  if (size) {
    const input = (issue as { input?: unknown }).input;
    const length = typeof input === 'string' || Array.isArray(input) ? count(input.length, issue.origin) : undefined;
    return `Must have at most ${size}.${length === undefined ? '' : ` It has ${length}.`}`;
  }
  if (issue.origin === 'date') return `Must be ${max} or earlier.`;
  return issue.inclusive ? `Must be at most ${max}.` : `Must be less than ${max}.`;
}

function invalidFormat(issue: Extract<Issue, { code: 'invalid_format' }>): string {
  const details = issue as unknown as Record<string, unknown>;
  switch (issue.format) {
    case 'starts_with':
      return `Must start with ${quote(details.prefix)}.`;
    case 'ends_with':
      return `Must end with ${quote(details.suffix)}.`;
    case 'includes':
      return `Must contain ${quote(details.includes)}.`;
    case 'regex':
      return 'Is not in the right format.';
    default: {
      const name = FORMAT_NAMES[issue.format];
      return name ? `Must be ${name}.` : 'Is not in the right format.';
    }
  }
}

/** The English message for one issue. */
export function englishIssueMessage(issue: Issue): string {
  const own = (issue as { params?: { en?: unknown } }).params?.en;
  if (typeof own === 'string') return own;
  switch (issue.code) {
    case 'invalid_type':
      return invalidType(issue);
    case 'invalid_value':
      return issue.values.length === 1
        ? `Only ${quote(issue.values[0])} is allowed.`
        : `Must be one of ${issue.values.map(quote).join(', ')}.`;
    case 'too_small':
      return tooSmall(issue);
    case 'too_big':
      return tooBig(issue);
    case 'invalid_format':
      return invalidFormat(issue);
    case 'not_multiple_of':
      return `Must be a multiple of ${issue.divisor}.`;
    case 'unrecognized_keys':
      return `${issue.keys.length === 1 ? 'Unknown field' : 'Unknown fields'}: ${issue.keys.join(', ')}.`;
    case 'invalid_union':
      return 'Is not in an accepted form.';
    case 'invalid_key':
      return 'Has a key that is not valid.';
    case 'invalid_element':
      return 'Holds a value that is not valid.';
    default:
      return 'Is not valid.';
  }
}
