import { describe, expect, it } from 'vitest';
import { defang, guardWarning } from '../bots/commands/guard-warning.js';
import { isAllowed, normaliseHost } from '../src/operations/link-guard/link-guard.js';
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
