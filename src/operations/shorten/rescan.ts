import type { Clock } from '../../clock.js';
import type { Logger } from '../../logger.js';
import { CATEGORY_LABEL } from '../url-detect/category-labels.js';
import type { UrlSafetyChecker } from '../url-detect/checker.js';
import type { RescanLink, ShortLinkStore } from './short-link-store.js';
import { shortUrl } from './shorten.js';
import { boundedCache } from '../../bounded-cache.js';

/** The chat doors' way into a channel (bots/notifier.ts); structurally the watch poller's notifier. */
export interface LinkChannelNotifier {
  platforms: readonly string[];
  post(
    target: { platform: 'slack' | 'discord'; channelId: string; workspaceId?: string },
    message: { text: string },
  ): Promise<{ ok: boolean }>;
}

export interface RescanDeps {
  store: Pick<ShortLinkStore, 'claimForRescan' | 'claimOne' | 'markHarmful'>;
  checker: UrlSafetyChecker;
  /** Tells every instance (this one included) to drop its cached target of the code. */
  announce(code: string): Promise<void>;
  notifier?: LinkChannelNotifier | undefined;
  shortUrlBase: string;
  clock: Clock;
  logger: Logger;
}

/** A person's clicks in one window that count as a jump: at least this many, and ten times the window before. */
export const JUMP_MIN_CLICKS = 100;
const JUMP_FACTOR = 10;
const JUMP_WINDOW_MS = 10 * 60_000;
/** A link checked for a jump is not checked again for that reason within this time. */
const JUMP_RECHECK_MS = 60 * 60_000;
const BATCH = 100;
const MAX_QUEUED = 100;

/**
 * Issue 40 item 6: short links stay safe after they are made. `runOnce` (on `URL_RESCAN`,
 * daily by default) checks every live link again with the full detector; `onHumanClick` notices
 * a link whose clicks jump and checks it at once. A link found harmful is put behind the warning
 * page for good (stored, and every instance's cache told), its owner sees why in the link's
 * stats, and a link made from Slack or Discord has its channel told, without a clickable target.
 */
export function createLinkRescan(deps: RescanDeps) {
  const windows = boundedCache<number, { start: number; count: number; previous: number }>(20_000);
  const queue: number[] = [];
  let draining: Promise<void> | undefined;

  async function check(link: RescanLink): Promise<boolean> {
    let verdict;
    try {
      verdict = await deps.checker.check(link.url);
    } catch (error) {
      deps.logger.warn({ err: error, linkId: link.id }, 'short link rescan: check failed; tried again next run');
      return false;
    }
    if (!verdict.isMalicious) return false;
    const marked = await deps.store.markHarmful(link.id, verdict, deps.clock());
    if (!marked) return false;
    deps.logger.warn({ linkId: link.id, category: verdict.category }, 'short link turned harmful: behind the warning page now');
    await deps.announce(link.code).catch((error: unknown) => deps.logger.warn({ err: error }, 'short link rescan: announce failed'));
    await tellChannel(link, verdict);
    return true;
  }

  async function tellChannel(link: RescanLink, verdict: { category: string; reason: string }): Promise<void> {
    const platform = link.originPlatform;
    if ((platform !== 'slack' && platform !== 'discord') || !link.originChannel || !deps.notifier?.platforms.includes(platform)) return;
    const label = CATEGORY_LABEL[verdict.category as keyof typeof CATEGORY_LABEL] ?? '유해';
    const text =
      `⚠️ 이 채널에서 만든 단축 링크 ${shortUrl(deps.shortUrlBase, link.code)} 의 목적지가 다시 검사한 결과 ${label} 사이트로 확인되었습니다. ` +
      `이제 이 링크를 여는 사람에게는 이동 대신 경고 페이지가 보입니다. 사유: ${verdict.reason}`;
    const outcome = await deps.notifier
      .post({ platform, channelId: link.originChannel, ...(link.originWorkspace ? { workspaceId: link.originWorkspace } : {}) }, { text })
      .catch(() => ({ ok: false }));
    if (!outcome.ok) deps.logger.warn({ linkId: link.id, platform }, 'short link rescan: channel could not be told');
  }

  async function drain(): Promise<void> {
    while (queue.length > 0) {
      const linkId = queue.shift()!;
      const now = deps.clock();
      try {
        const link = await deps.store.claimOne(linkId, new Date(now.getTime() - JUMP_RECHECK_MS), now);
        if (link) await check(link);
      } catch (error) {
        deps.logger.warn({ err: error, linkId }, 'short link jump check failed');
      }
    }
    draining = undefined;
  }

  return {
    /**
     * One pass over the live links not checked within half a period (so two instances on the
     * same schedule share the work instead of doing it twice). Returns how many were checked and
     * how many turned harmful.
     */
    async runOnce(periodMs: number): Promise<{ checked: number; harmful: number }> {
      const start = deps.clock();
      const cutoff = new Date(start.getTime() - Math.min(periodMs / 2, 12 * 3600_000));
      let checked = 0;
      let harmful = 0;
      for (;;) {
        const links = await deps.store.claimForRescan(cutoff, deps.clock(), BATCH);
        if (links.length === 0) break;
        for (const link of links) {
          checked++;
          if (await check(link)) harmful++;
        }
      }
      deps.logger.info({ checked, harmful }, 'short links rescanned');
      return { checked, harmful };
    },

    /** Counts a person's click; a jump queues the link for a check now (a bounded queue, one at a time). */
    onHumanClick(linkId: number): void {
      const now = deps.clock().getTime();
      let window = windows.get(linkId);
      if (!window) windows.set(linkId, (window = { start: now, count: 0, previous: 0 }));
      if (now - window.start >= JUMP_WINDOW_MS) {
        const elapsed = Math.floor((now - window.start) / JUMP_WINDOW_MS);
        window.previous = elapsed === 1 ? window.count : 0;
        window.start += elapsed * JUMP_WINDOW_MS;
        window.count = 0;
      }
      window.count++;
      if (window.count !== Math.max(JUMP_MIN_CLICKS, window.previous * JUMP_FACTOR)) return;
      if (queue.length >= MAX_QUEUED || queue.includes(linkId)) return;
      queue.push(linkId);
      draining ??= drain();
    },

    /** Waits for queued jump checks (tests, shutdown). */
    async idle(): Promise<void> {
      while (draining) await draining;
    },
  };
}

export type LinkRescan = ReturnType<typeof createLinkRescan>;
