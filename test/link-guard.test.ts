import { describe, expect, it } from 'vitest';
import { defang, guardWarning } from '../bots/commands/guard-warning.js';
import { isAllowed, normaliseHost } from '../src/operations/link-guard/link-guard.js';
import { scamFinding } from '../src/operations/link-guard/message-warning.js';
import type { MessageJudge, MessageJudgement, MessageLevel } from '../src/operations/url-scan/message-judge.js';
import { createTenantQueue } from '../src/operations/link-guard/tenant-queue.js';
import { messageParts } from '../src/operations/url-scan/message-parts.js';

/** A job that runs until its gate is opened. */
function gated() {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let started = false;
  return { job: async () => void ((started = true), await gate), open, started: () => started };
}

describe('tenant queue', () => {
  it('runs one job per tenant at a time, bounds what waits, and gives free slots to other tenants', async () => {
    const queue = createTenantQueue({ maxPending: 2, concurrency: 2 });
    const flood = Array.from({ length: 10 }, gated);
    const results = flood.map((job) => queue.push('flood', job.job));
    expect(results).toEqual(['queued', 'queued', 'queued', ...Array(7).fill('dropped')]);
    expect(queue.stats('flood')).toEqual({ running: 1, pending: 2, dropped: 7 });
    expect(flood.filter((job) => job.started())).toHaveLength(1);

    const calm = gated();
    expect(queue.push('calm', calm.job)).toBe('queued');
    expect(calm.started()).toBe(true);
    calm.open();
    flood[0]!.open();
    flood[1]!.open();
    flood[2]!.open();
    await queue.idle();
    expect(flood.filter((job) => job.started())).toHaveLength(3);
    expect(queue.takeDropped('flood')).toBe(7);
    expect(queue.stats('flood')).toEqual({ running: 0, pending: 0, dropped: 0 });
  });

  it('keeps going after a failing job', async () => {
    const queue = createTenantQueue({ maxPending: 5, concurrency: 1 });
    const ran: number[] = [];
    queue.push('t', async () => {
      throw new Error('boom');
    });
    queue.push('t', async () => void ran.push(2));
    await queue.idle();
    expect(ran).toEqual([2]);
  });
});

describe('hosts and warnings', () => {
  it('reads a host however it was typed, and refuses what is none', () => {
    expect(normaliseHost('Example.COM')).toBe('example.com');
    expect(normaliseHost('https://login.example.com/a?b=1')).toBe('login.example.com');
    expect(normaliseHost('<https://example.com|example.com>')).toBe('example.com');
    expect(normaliseHost('example.com.')).toBe('example.com');
    expect(normaliseHost('localhost')).toBeUndefined();
    expect(normaliseHost('not a host')).toBeUndefined();
  });

  it('allows a host and its subdomains, not look-alikes', () => {
    expect(isAllowed('example.com', ['example.com'])).toBe(true);
    expect(isAllowed('a.b.example.com', ['example.com'])).toBe(true);
    expect(isAllowed('badexample.com', ['example.com'])).toBe(false);
    expect(isAllowed('example.com.evil.xyz', ['example.com'])).toBe(false);
  });

  it('writes hosts, URLs and reasons so no client links them', () => {
    expect(defang('https://kbstar-login.xyz/verify')).toBe('https[:]//kbstar-login[.]xyz/verify');
    expect(defang("호스트(naver.com)에 'naver'가 들어 있음, 도메인(.xyz).")).toBe(
      "호스트(naver[.]com)에 'naver'가 들어 있음, 도메인(.xyz).",
    );
    const warning = guardWarning(
      { locale: 'ko' },
      [{ host: 'bit.ly', finalHost: 'casino-king.xyz', category: 'gambling', reason: '도박 용어(casino-king.xyz)' }],
      'warn',
    );
    const shown = JSON.stringify(warning);
    expect(shown).toContain('bit[.]ly → casino-king[.]xyz');
    expect(shown).not.toMatch(/casino-king\.xyz|bit\.ly/);
    expect(warning.public).toBe(true);
  });

  it('leaves pictures out of the link guard’s message parts', () => {
    const message = {
      attachments: [{ title_link: 'https://a.example/x', thumb_url: 'https://cdn.example/t.png', image_url: 'https://cdn.example/i.png' }],
    };
    expect(messageParts(message)).toHaveLength(3);
    expect(messageParts(message, { images: false })).toEqual(['https://a.example/x']);
  });
});

/** A message judge that answers what the test decided, per level (the real one is tested with its model). */
function judgeAnswering(level: MessageLevel): MessageJudge & { seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    judge(text): MessageJudgement {
      seen.push(text);
      const scam = level === 'firm' || level === 'likely';
      return {
        is_smishing: scam,
        scam_type: scam ? 'family_impersonation' : null,
        scam_label: scam ? '가족·지인 사칭' : null,
        advice: scam ? '가족에게 이미 알고 있는 번호로 직접 전화해 확인하세요.' : '',
        score: scam ? 0.97 : 0.1,
        level,
        reasons: ['메시지 속 번호 010-1234-5678로 연락을 요구합니다.'],
      };
    },
  };
}

describe('scam warnings of the link guard (/guard messages on)', () => {
  const text = '엄마 나 폰 액정 깨져서 수리 맡겼어 010-1234-5678 이 번호로 문자줘';

  it('warns only at the firm level, and keeps nothing of the judgement that could quote the message', () => {
    expect(scamFinding(judgeAnswering('firm'), text, [])).toEqual({
      scam_type: 'family_impersonation',
      scam_label: '가족·지인 사칭',
      advice: '가족에게 이미 알고 있는 번호로 직접 전화해 확인하세요.',
    });
    for (const level of ['likely', 'uncertain', 'unlikely'] as const) expect(scamFinding(judgeAnswering(level), text, [])).toBeUndefined();
  });

  it('shows the kind of scam and what to do, in the channel, without the message, its number or a mention', () => {
    const scam = scamFinding(judgeAnswering('firm'), text, [])!;
    const warning = guardWarning({ locale: 'ko' }, [], 'warn', scam);
    const shown = JSON.stringify(warning);
    expect(warning.title).toBe('⚠️ 사기(스미싱)로 보이는 메시지입니다');
    expect(shown).toContain('가족·지인 사칭');
    expect(shown).toContain('이미 알고 있는 번호로 직접 전화해');
    expect(shown).toContain('/guard messages off');
    expect(shown).not.toMatch(/010-1234-5678|액정|문자줘|<[!@#]/);
    expect(warning.public).toBe(true);
  });

  it('adds the scam to a warning about harmful links, and falls back to general advice in English or without advice', () => {
    const link = { host: 'kbstar-login.xyz', category: 'phishing' as const, reason: '피싱' };
    const both = JSON.stringify(guardWarning({ locale: 'ko' }, [link], 'warn', { scam_type: 'other', scam_label: null, advice: '' }));
    expect(both).toContain('위험한 링크');
    expect(both).toContain('사기 의심: 스미싱');
    expect(both).toContain('118(KISA)');
    const english = JSON.stringify(guardWarning({ locale: 'en' }, [], 'warn', scamFinding(judgeAnswering('firm'), text, [])));
    expect(english).toContain('This message looks like a scam');
    expect(english).toContain('a number you already know');
  });
});
