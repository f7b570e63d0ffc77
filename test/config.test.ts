import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from '../src/config.js';

describe('loadConfig', () => {
  it('applies CONTRACT §2 defaults and derives the public and short-link bases', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      HOST: '0.0.0.0',
      DATA_DIR: './data',
      PUBLIC_BASE_URL: 'http://localhost:3000',
      SHORT_URL_BASE: 'http://localhost:3000/s',
      DEFAULT_QUOTA: 1000,
      LLM_TIMEOUT_MS: 30000,
      DELIVERY_TRACKER_URL: 'https://apis.tracker.delivery/graphql',
      SLACK_API_URL: 'https://slack.com/api/',
      DISCORD_API_URL: 'https://discord.com/api',
      WATCH_CRON: '*/10 * * * *',
      WEBHOOK_ALLOW_INSECURE: false,
      LOG_LEVEL: 'info',
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(loadConfig({ PORT: '8080', PUBLIC_BASE_URL: 'https://hub.example.kr/' })).toMatchObject({
      PUBLIC_BASE_URL: 'https://hub.example.kr',
      SHORT_URL_BASE: 'https://hub.example.kr/s',
    });
    expect(loadConfig({ SHORT_URL_BASE: 'https://aih.kr' }).SHORT_URL_BASE).toBe('https://aih.kr');
  });

  it('reads invitation mail settings: off by default, the sender from PUBLIC_BASE_URL, never echoing the SMTP password', () => {
    expect(loadConfig({}).SMTP_URL).toBeUndefined();
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://hub.example.kr' }).SMTP_FROM).toBe('AI Utility Hub <no-reply@hub.example.kr>');
    expect(loadConfig({ SMTP_URL: 'smtp://u:p@mail.example.kr:587', SMTP_FROM: '허브 <hub@example.kr>' })).toMatchObject({
      SMTP_URL: 'smtp://u:p@mail.example.kr:587',
      SMTP_FROM: '허브 <hub@example.kr>',
    });
    expect(() => loadConfig({ SMTP_URL: 'mail.example.kr s3cret' })).toThrow(/SMTP_URL: /);
    expect(() => loadConfig({ SMTP_URL: 'mail.example.kr s3cret' })).not.toThrow(/s3cret/);
  });

  it('treats empty optional values as unset', () => {
    const config = loadConfig({ OPENAI_API_KEY: '', DATABASE_URL: ' ', LOG_LEVEL: '', OPENAI_TOKEN_PARAM: '' });
    expect(config.OPENAI_API_KEY).toBeUndefined();
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.OPENAI_TOKEN_PARAM).toBeUndefined();
    expect(config.LOG_LEVEL).toBe('info');
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['DEFAULT_QUOTA', '-1'],
    ['PUBLIC_BASE_URL', 'ftp://example.com'],
    ['LLM_TIMEOUT_MS', '0'],
    ['LOG_LEVEL', 'verbose'],
    ['WEBHOOK_ALLOW_INSECURE', 'maybe'],
    ['DISCORD_PUBLIC_KEY', 'abc'],
    ['OPENAI_TOKEN_PARAM', 'tokens'],
    ['WATCH_CRON', 'every ten minutes'],
    ['SMTP_URL', 'mail.example.kr:587'],
    ['SMTP_URL', 'http://mail.example.kr'],
    ['SMTP_FROM', 'no address'],
    ['METRICS_TOKEN', 'short'],
    ['METRICS_TOKEN', 'has spaces in the middle of it'],
    ['METRICS_PORT', '-1'],
    ['METRICS_PORT', 'nine'],
  ])('stops on a bad %s, naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });

  it('stops when METRICS_PORT is PORT, naming it, and never shows METRICS_TOKEN', () => {
    expect(() => loadConfig({ PORT: '3000', METRICS_PORT: '3000' })).toThrow(/METRICS_PORT.*PORT와 다른 포트/);
    expect(() => loadConfig({ METRICS_TOKEN: 'secret value' })).toThrow(/METRICS_TOKEN: /);
    expect(() => loadConfig({ METRICS_TOKEN: 'secret value' })).not.toThrow(/secret value/);
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_TOKEN: 'a'.repeat(16) })).toMatchObject({
      METRICS_PORT: 9464,
      METRICS_TOKEN: 'a'.repeat(16),
    });
  });

  it('is documented: .env.example names every variable, and nothing else', () => {
    const documented = readFileSync(new URL('../.env.example', import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => line.slice(0, line.indexOf('=')));
    expect(documented.sort()).toEqual([...CONFIG_VARIABLES].sort());
    expect(() => loadConfig(Object.fromEntries(documented.map((name) => [name, ''])))).not.toThrow();
  });
});
