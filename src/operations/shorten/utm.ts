import { fieldError } from '../../errors.js';
import { MAX_URL_LENGTH, type utmSchema } from './shorten.schema.js';
import type { z } from 'zod';

export type Utm = z.output<typeof utmSchema>;

const UTM_KEYS = ['source', 'medium', 'campaign', 'term', 'content'] as const;

/**
 * The target with `utm_*` parameters appended (issue 36). The target's own parameters are kept
 * byte for byte and in order; a `utm_*` key that the request sets replaces the target's one of the
 * same name (the caller asked for that value); each new value is percent-encoded exactly once.
 * The fragment stays last. Dedupe then works on this final URL.
 */
export function appendUtm(url: string, utm: Utm): string {
  const parsed = new URL(url);
  const given = UTM_KEYS.filter((key) => utm[key] !== undefined).map((key) => `utm_${key}`);
  const kept = parsed.search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '' && !given.includes(decodeKey(pair.split('=')[0] ?? '')));
  const added = UTM_KEYS.flatMap((key) => (utm[key] === undefined ? [] : [`utm_${key}=${encodeURIComponent(utm[key])}`]));
  parsed.search = `?${[...kept, ...added].join('&')}`;
  const final = parsed.href;
  if (final.length > MAX_URL_LENGTH)
    throw fieldError('utm', {
      ko: `UTM 태그를 붙인 URL이 ${MAX_URL_LENGTH}자를 넘습니다. 태그를 줄여 주세요.`,
      en: `With the UTM tags the URL is longer than ${MAX_URL_LENGTH} characters.`,
    });
  return final;
}

function decodeKey(key: string): string {
  try {
    return decodeURIComponent(key.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return key.toLowerCase();
  }
}
