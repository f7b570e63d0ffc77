import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { commandUsage } from '../bots/commands/usage.js';
import { findCommand } from '../bots/commands/registry.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { createLogger, wantsPrettyLog } from '../src/logger.js';
import { joinSpacedSyllables } from '../src/operations/ocr-idcard/text.js';
import { TONE_NAMES, toneCode } from '../src/operations/tone/tone-names.js';
import { TONES } from '../src/operations/tone/tone.schema.js';
import { languageCodeOf } from '../src/operations/translate/language-names.js';
import { catalogFeatures, startupStatusLines, trackerStatus } from '../src/server-status.js';

/** Issue 35 without a runtime: configuration errors, start-up lines, names, usage per platform, OCR text, the log's form. */
describe('configuration errors at start (item 5)', () => {
  it('names every bad variable, in full in Korean and then in English', () => {
    let message = '';
    try {
      loadConfig({ PORT: '70000', LOG_LEVEL: 'loud', CORS_ORIGINS: 'https://app.example.kr/path', ADMIN_EMAILS: 'not-an-email' });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    const [korean, english] = message.split('Invalid configuration');
    for (const name of ['PORT', 'LOG_LEVEL', 'CORS_ORIGINS', 'ADMIN_EMAILS']) {
      expect(korean).toContain(name);
      expect(english).toContain(name);
    }
    expect(korean).toContain("PORT ('70000'): 65535 이하여야 합니다");
    expect(korean).toContain("ADMIN_EMAILS ('not-an-email'): 쉼표로 구분한 이메일 주소여야 합니다");
    expect(korean).not.toMatch(/must|should/);
    expect(english).toContain("PORT ('70000'): must be at most 65535");
    expect(english).not.toMatch(/[가-힣]/);
  });

  it('never prints the value of a secret', () => {
    expect(() => loadConfig({ DISCORD_PUBLIC_KEY: 'abc-secret' })).toThrow(/DISCORD_PUBLIC_KEY: Discord/);
    expect(() => loadConfig({ DISCORD_PUBLIC_KEY: 'abc-secret' })).not.toThrow(/abc-secret/);
  });

  it('reads ADMIN_EMAILS and CORS_ORIGINS as lists, both off by default', () => {
    expect(loadConfig({})).toMatchObject({ ADMIN_EMAILS: [], CORS_ORIGINS: [] });
    expect(loadConfig({ ADMIN_EMAILS: 'A@x.kr, b@y.kr', CORS_ORIGINS: 'https://a.kr/,http://b.kr:8080' })).toMatchObject({
      ADMIN_EMAILS: ['a@x.kr', 'b@y.kr'],
      CORS_ORIGINS: ['https://a.kr', 'http://b.kr:8080'],
    });
  });
});

describe('start-up lines (item 6)', () => {
  const lines = (env: Record<string, string>) => startupStatusLines(loadConfig(env), 9).map((line) => `${line.part} ${line.message}`);

  it('say the LLM host and model, or off', () => {
    expect(lines({ OPENAI_BASE_URL: 'http://localhost:11434/v1', OPENAI_MODEL: 'qwen3' })[0]).toBe(
      'llm LLM on: localhost:11434, model qwen3',
    );
    expect(lines({})[0]).toMatch(/^llm LLM off: set OPENAI_API_KEY or OPENAI_BASE_URL/);
  });

  it('say whether the tracker is hosted with or without credentials, or self-hosted; without them delivery-tracking is unavailable', () => {
    expect(lines({})[1]).toMatch(/^tracker tracker: hosted \(apis.tracker.delivery\) without credentials: every lookup fails/);
    expect(catalogFeatures(loadConfig({})).tracker).toBe(false);
    const withKeys = { DELIVERY_TRACKER_CLIENT_ID: 'id', DELIVERY_TRACKER_CLIENT_SECRET: 'secret' };
    expect(lines(withKeys)[1]).toBe('tracker tracker: hosted (apis.tracker.delivery) with credentials');
    expect(lines({ DELIVERY_TRACKER_URL: 'http://tracker.lan:4000/graphql' })[1]).toBe('tracker tracker: self-hosted at tracker.lan:4000');
    expect(trackerStatus(loadConfig({ DELIVERY_TRACKER_URL: 'http://tracker.lan:4000/graphql' })).usable).toBe(true);
  });

  it('say the feeds and the database, never a database password', () => {
    expect(lines({ URL_LIST_REFRESH: 'off' })[2]).toMatch(/^feeds harmful-URL feeds: 9 configured, refresh off/);
    expect(lines({ DATABASE_URL: 'postgres://hub:s3cret@db.lan:5432/hub' })[3]).toBe('database database: PostgreSQL at db.lan:5432/hub');
    expect(lines({ DATA_DIR: './data' })[3]).toBe('database database: PGlite (embedded) in ./data');
  });

  it('say whether invitation mail is on, never the SMTP password', () => {
    expect(lines({ SMTP_URL: 'smtp://hub:s3cret@mail.example.kr:587', PUBLIC_BASE_URL: 'https://hub.example.kr' })[4]).toBe(
      'mail invitation mail on: smtp://mail.example.kr:587, from AI Utility Hub <no-reply@hub.example.kr>',
    );
    expect(lines({})[4]).toMatch(/^mail invitation mail off \(no SMTP_URL\)/);
  });

  it('say where /metrics is served, or that it is off, never the token', () => {
    expect(lines({})[5]).toMatch(/^metrics metrics off: set METRICS_TOKEN .* or METRICS_PORT/);
    const token = 'metrics-token-0123456789';
    expect(lines({ METRICS_TOKEN: token })[5]).toBe('metrics metrics: GET /metrics on the main port, with the bearer token METRICS_TOKEN');
    expect(lines({ METRICS_PORT: '9464', HOST: '10.0.0.5' })[5]).toBe(
      'metrics metrics: GET /metrics on METRICS_PORT 9464 (10.0.0.5) without a token: keep that port private',
    );
    expect(lines({ METRICS_PORT: '9464', METRICS_TOKEN: token }).join('\n')).not.toContain(token);
  });
});

describe('the log at a terminal (item 6)', () => {
  it('is pretty at a terminal outside production, JSON otherwise', () => {
    expect(wantsPrettyLog(true, undefined)).toBe(true);
    expect(wantsPrettyLog(true, 'development')).toBe(true);
    expect(wantsPrettyLog(true, 'production')).toBe(false);
    expect(wantsPrettyLog(false, 'development')).toBe(false);
    expect(wantsPrettyLog(undefined, undefined)).toBe(false);
  });

  it('prints readable lines, still scrubbed of keys', () => {
    let written = '';
    const sink = new Writable({ write: (chunk, _encoding, done) => ((written += String(chunk)), done()) });
    const logger = createLogger('info', sink as never, { pretty: true });
    logger.info({ part: 'llm' }, 'LLM off: key aik_0123456789abcdefghij given');
    written = written.replace(/\x1b\[[0-9;]*m/g, ''); // colours off for reading
    expect(written).toMatch(/INFO.*LLM off: key aik_\[REDACTED\] given/);
    expect(written).toContain('part: "llm"');
    expect(written.trim().startsWith('{')).toBe(false);
  });
});

describe('Korean names (item 4)', () => {
  it('map every tone name and alias to its code, and every code to itself', () => {
    for (const tone of TONES) {
      expect(toneCode(tone)).toBe(tone);
      expect(toneCode(TONE_NAMES[tone].ko)).toBe(tone);
      for (const alias of TONE_NAMES[tone].aliases) expect(toneCode(alias)).toBe(tone);
    }
    expect(toneCode(' 해요체 ')).toBe('casual');
    expect(toneCode('귀여운  말투')).toBe('cute');
    expect(toneCode('사투리')).toBe('사투리');
  });

  it('map language names and one-syllable forms to codes', () => {
    expect(['한국어', '한', '영어', '영', '일본어', '일', '중국어', '중', 'EN', 'English'].map(languageCodeOf)).toEqual([
      'ko',
      'ko',
      'en',
      'en',
      'ja',
      'ja',
      'zh',
      'zh',
      'en',
      'en',
    ]);
    expect(languageCodeOf('자동')).toBe('auto');
  });
});

describe('each platform its own syntax (item 5)', () => {
  it('gives Slack its positional usage and Discord its option fields', () => {
    const tone = findCommand('tone')!;
    expect(commandUsage(tone, 'slack').ko).toBe(tone.usage.ko);
    expect(commandUsage(tone, 'discord')).toEqual({
      ko: '/tone style:<말투 (해요체, 하십시오체, 반말 …)> text:<바꿀 문장>',
      en: expect.any(String),
    });
    expect(commandUsage(findCommand('link')!, 'discord').ko).toBe('/link key:<API 키 (aik_…)>');
    expect(commandUsage(findCommand('kb')!, 'discord').ko).toContain('/kb add');
    expect(commandUsage(findCommand('kb')!, 'discord').ko).not.toContain('<내용> |');
  });
});

describe('OCR raw_text (item 7)', () => {
  it('joins letter-spaced syllables into words and keeps the spaces between words', () => {
    expect(joinSpacedSyllables('주 민 등 록 증\n성 명 홍길동\n주 소 서울특별시 종로구 세종대로 1')).toBe(
      '주민등록증\n성명 홍길동\n주소 서울특별시 종로구 세종대로 1',
    );
    expect(joinSpacedSyllables('사업자등록증 상 호 : 주식회사 한빛')).toBe('사업자등록증 상호 : 주식회사 한빛');
    expect(joinSpacedSyllables('123456-1234567 A B')).toBe('123456-1234567 A B');
  });
});
