import { AppError } from '../../errors.js';
import type { Account } from '../../platform/accounts.js';
import type { ClickRecorder } from './clicks.js';
import type { FacetRecorder } from './click-facets-store.js';
import type { LinkStore } from './links.js';
import { shortUrl } from './shorten.js';
import { CODE_PATTERN } from './shorten.schema.js';

type Count = { name: string; clicks: number };

export interface LinkStatsView {
  code: string;
  short_url: string;
  url: string;
  created_at: string;
  clicks: Awaited<ReturnType<LinkStore['clickStats']>> & {
    /** Issue 36: opened through the link's QR code (`?qr=1`) or directly. */
    qr: number;
    direct: number;
  };
  /** Issue 36: people per Seoul day (daily-rotated salted hashes; the address is never stored). */
  unique_visitors: Array<{ date: string; visitors: number }>;
  referrers: Array<{ host: string; clicks: number }>;
  devices: Count[];
  os: Count[];
  browsers: Count[];
  /** Null when the operator gave no GeoIP database (`countries_note` says so). */
  countries: Count[] | null;
  countries_note?: string;
  /** Issue 36: `active`, `expired` or `used_up`, and the limits the link was made with. */
  status: 'active' | 'expired' | 'used_up' | 'blocked';
  expires_at: string | null;
  max_clicks: number | null;
  clicks_used: number | null;
  /** Issue 40 item 6: the link's safety as the last rescan found it. */
  safety: {
    state: 'unchecked' | 'ok' | 'harmful';
    category: string | null;
    reason: string | null;
    checked_at: string | null;
    found_at: string | null;
  };
}

/** Click statistics of a short link, for its owner only (another account's code is a 404). */
export type LinkStats = (account: Account, code: string) => Promise<LinkStatsView>;

export const linkNotFound = () => new AppError('NOT_FOUND', '해당 단축 URL을 찾을 수 없습니다.', { field: 'code' });

export function createLinkStats(deps: {
  links: LinkStore;
  clicks: ClickRecorder;
  shortUrlBase: string;
  facets?: Pick<FacetRecorder, 'stats'>;
  referrers?: (linkId: number) => Promise<Array<{ host: string; clicks: number }>>;
  geoConfigured?: boolean;
  clock?: () => Date;
}): LinkStats {
  return async function linkStats(account, code) {
    const link = CODE_PATTERN.test(code) ? await deps.links.findByCode(code) : undefined;
    if (!link || link.accountId !== account.id) {
      throw linkNotFound();
    }
    await deps.clicks.flush(); // include clicks still waiting in this instance's buffer
    const clicks = await deps.links.clickStats(link.id);
    const facets = (await deps.facets?.stats(link.id)) ?? [];
    const sum = (facet: string, value?: string, bots = false) =>
      facets
        .filter((row) => row.facet === facet && (value === undefined || row.value === value) && (bots || !row.isBot))
        .reduce((total, row) => total + row.clicks, 0);
    const ranked = (facet: string): Count[] => {
      const totals = new Map<string, number>();
      for (const row of facets) if (row.facet === facet && !row.isBot) totals.set(row.value, (totals.get(row.value) ?? 0) + row.clicks);
      return [...totals]
        .map(([name, count]) => ({ name, clicks: count }))
        .sort((a, b) => b.clicks - a.clicks || a.name.localeCompare(b.name));
    };
    const daily = clicks.daily.map((day) => ({
      ...day,
      qr: facets
        .filter((row) => row.day === day.date && row.facet === 'source' && row.value === 'qr')
        .reduce((total, row) => total + row.clicks, 0),
    }));
    const now = (deps.clock ?? (() => new Date()))();
    const expired = link.expiresAt ? link.expiresAt.getTime() <= now.getTime() : false;
    const usedUp = link.maxClicks ? (link.clicksUsed ?? 0) >= link.maxClicks : false;
    const harmful = Boolean(link.harmCategory);
    return {
      code: link.code,
      short_url: shortUrl(deps.shortUrlBase, link.code),
      url: link.url,
      created_at: link.createdAt.toISOString(),
      clicks: { ...clicks, daily, qr: sum('source', 'qr', true), direct: sum('source', 'direct', true) },
      unique_visitors: facets.filter((row) => row.facet === 'visitors').map((row) => ({ date: row.day, visitors: row.clicks })),
      referrers: ((await deps.referrers?.(link.id)) ?? []).map((row) => ({ host: row.host || '(direct)', clicks: row.clicks })),
      devices: ranked('device'),
      os: ranked('os'),
      browsers: ranked('browser'),
      countries: deps.geoConfigured ? ranked('country') : null,
      ...(deps.geoConfigured ? {} : { countries_note: '운영자가 GeoIP 데이터베이스(GEOIP_DB)를 설정하지 않아 국가별 통계는 없습니다.' }),
      status: harmful ? 'blocked' : expired ? 'expired' : usedUp ? 'used_up' : 'active',
      expires_at: link.expiresAt ? link.expiresAt.toISOString() : null,
      max_clicks: link.maxClicks ?? null,
      clicks_used: link.maxClicks ? (link.clicksUsed ?? 0) : null,
      safety: {
        state: harmful ? 'harmful' : link.scannedAt ? 'ok' : 'unchecked',
        category: link.harmCategory ?? null,
        reason: link.harmReason ?? null,
        checked_at: link.scannedAt ? link.scannedAt.toISOString() : null,
        found_at: link.harmFoundAt ? link.harmFoundAt.toISOString() : null,
      },
    };
  };
}
