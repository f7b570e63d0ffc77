import { AppError } from '../../errors.js';
import type { Account } from '../../platform/accounts.js';
import type { ClickRecorder } from './clicks.js';
import type { LinkStore } from './links.js';
import { shortUrl } from './shorten.js';
import { CODE_PATTERN } from './shorten.schema.js';

export interface LinkStatsView {
  code: string;
  short_url: string;
  url: string;
  created_at: string;
  clicks: Awaited<ReturnType<LinkStore['clickStats']>>;
}

/** Click statistics of a short link, for its owner only (another account's code is a 404). */
export type LinkStats = (account: Account, code: string) => Promise<LinkStatsView>;

export const linkNotFound = () => new AppError('NOT_FOUND', '해당 단축 URL을 찾을 수 없습니다.', { field: 'code' });

export function createLinkStats(deps: { links: LinkStore; clicks: ClickRecorder; shortUrlBase: string }): LinkStats {
  return async function linkStats(account, code) {
    const link = CODE_PATTERN.test(code) ? await deps.links.findByCode(code) : undefined;
    if (!link || link.accountId !== account.id) {
      throw linkNotFound();
    }
    await deps.clicks.flush(); // include clicks still waiting in this instance's buffer
    const clicks = await deps.links.clickStats(link.id);
    return {
      code: link.code,
      short_url: shortUrl(deps.shortUrlBase, link.code),
      url: link.url,
      created_at: link.createdAt.toISOString(),
      clicks,
    };
  };
}
