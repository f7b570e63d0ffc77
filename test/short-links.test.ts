import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { parseQrQuery } from '../src/operations/shorten/qr.js';
import { createLinkRescan, JUMP_MIN_CLICKS } from '../src/operations/shorten/rescan.js';
import type { RescanLink } from '../src/operations/shorten/short-link-store.js';
import { agentFamilies } from '../src/operations/shorten/user-agent.js';
import { appendUtm } from '../src/operations/shorten/utm.js';

describe('appendUtm', () => {
  const utm = { source: 'kakao', medium: 'social', campaign: 'winter sale' };
  it('appends after the target’s own parameters, encoded once, fragment last', () => {
    expect(appendUtm('https://a.example/p?x=%2F&y=1#top', utm)).toBe(
      'https://a.example/p?x=%2F&y=1&utm_source=kakao&utm_medium=social&utm_campaign=winter%20sale#top',
    );
    expect(appendUtm('https://a.example/', { ...utm, term: '신발', content: 'a&b=c' })).toBe(
      'https://a.example/?utm_source=kakao&utm_medium=social&utm_campaign=winter%20sale&utm_term=%EC%8B%A0%EB%B0%9C&utm_content=a%26b%3Dc',
    );
  });
  it('replaces only the utm keys it sets, keeping the others (utm_term of the target stays)', () => {
    expect(appendUtm('https://a.example/?UTM_SOURCE=old&utm_term=keep&utm_medium=x', utm)).toBe(
      'https://a.example/?utm_term=keep&utm_source=kakao&utm_medium=social&utm_campaign=winter%20sale',
    );
  });
  it('does not encode a percent sign twice', () => {
    const once = appendUtm('https://a.example/', { source: '100%', medium: 'm', campaign: 'c' });
    expect(once).toContain('utm_source=100%25&');
    expect(new URL(once).searchParams.get('utm_source')).toBe('100%');
  });
  it('refuses a result over the URL limit with a 400 naming utm', () => {
    expect(() => appendUtm(`https://a.example/${'a'.repeat(2000)}`, { source: 'x'.repeat(200), medium: 'm', campaign: 'c' })).toThrow(
      expect.objectContaining({ status: 400, extra: expect.objectContaining({ field: 'utm' }) }),
    );
  });
});

describe('parseQrQuery', () => {
  it('defaults to an SVG of 300 px and reads png and a size', () => {
    expect(parseQrQuery({})).toEqual({ format: 'svg', size: 300 });
    expect(parseQrQuery({ format: 'png', size: '512' })).toEqual({ format: 'png', size: 512 });
  });
  it.each([{ format: 'gif' }, { size: '10' }, { size: '5000' }, { size: '1e3' }, { size: ['1', '2'] }, { format: ['png'] }])(
    'refuses %j with a 400 naming the parameter',
    (query) => {
      expect(() => parseQrQuery(query)).toThrow(expect.objectContaining({ status: 400 }));
    },
  );
});

describe('agentFamilies', () => {
  it('names the families of common agents, and unknown for the rest', () => {
    expect(
      agentFamilies(
        'Mozilla/5.0 (Linux; Android 14; SM-S918N) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36',
      ),
    ).toEqual({ device: 'mobile', os: 'Android', browser: 'Samsung Internet for Android' });
    expect(
      agentFamilies('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15'),
    ).toEqual({
      device: 'desktop',
      os: 'macOS',
      browser: 'Safari',
    });
    expect(agentFamilies(undefined)).toEqual({ device: 'unknown', os: 'unknown', browser: 'unknown' });
    expect(agentFamilies('x'.repeat(5000)).browser.length).toBeLessThanOrEqual(40);
  });
});

describe('link rescan', () => {
  const link: RescanLink = {
    id: 7,
    accountId: 1,
    code: 'aZ3k9',
    url: 'https://bad.example/x',
    originPlatform: 'discord',
    originWorkspace: 'G1',
    originChannel: 'CH1',
  };
  function setup(now = { ms: Date.parse('2026-11-27T00:00:00Z') }) {
    const claimed: number[] = [];
    const marked: number[] = [];
    const announced: string[] = [];
    const posts: Array<{ channelId: string; text: string }> = [];
    const rescan = createLinkRescan({
      store: {
        claimForRescan: async () => [],
        claimOne: async (id) => (claimed.push(id), { ...link, id }),
        markHarmful: async (id) => (marked.push(id), true),
      },
      checker: { check: async () => ({ isMalicious: true, category: 'phishing', reason: '<@U1> 피싱 목록' }) },
      announce: async (code) => void announced.push(code),
      notifier: {
        platforms: ['discord'],
        post: async (target, message) => (posts.push({ channelId: target.channelId, text: message.text }), { ok: true }),
      },
      shortUrlBase: 'https://hub.example/s',
      clock: () => new Date(now.ms),
      logger: createLogger('silent'),
    });
    return { rescan, claimed, marked, announced, posts, now };
  }

  it('checks a link once when its clicks jump, tells every instance and the channel it came from', async () => {
    const { rescan, claimed, marked, announced, posts } = setup();
    for (let i = 0; i < JUMP_MIN_CLICKS - 1; i++) rescan.onHumanClick(7);
    await rescan.idle();
    expect(claimed).toEqual([]);
    for (let i = 0; i < 50; i++) rescan.onHumanClick(7);
    await rescan.idle();
    expect(claimed).toEqual([7]);
    expect(marked).toEqual([7]);
    expect(announced).toEqual(['aZ3k9']);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.channelId).toBe('CH1');
    expect(posts[0]!.text).toContain('https://hub.example/s/aZ3k9');
    expect(posts[0]!.text).not.toContain('bad.example');
  });

  it('needs ten times the window before for a busy link', async () => {
    const { rescan, claimed, now } = setup();
    for (let i = 0; i < 200; i++) rescan.onHumanClick(9); // first window: a jump from nothing
    await rescan.idle();
    expect(claimed).toEqual([9]);
    now.ms += 10 * 60_000;
    for (let i = 0; i < 1999; i++) rescan.onHumanClick(9); // 200 before: a jump needs 2000
    await rescan.idle();
    expect(claimed).toEqual([9]);
    rescan.onHumanClick(9);
    await rescan.idle();
    expect(claimed).toEqual([9, 9]);
  });
});
