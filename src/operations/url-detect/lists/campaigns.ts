import { parse } from 'tldts';
import { isFirstParty, isInstitutionalSuffix, isSharedPlatformHost, SHARED_HOSTING } from '../rules/domains.js';
import { shortenerOf } from '../expansion/shorteners.js';

/**
 * Campaigns: smishing kits rotate sub-domains by the thousand on one throw-away registered
 * domain (`a05.d4zs.pics` reported, `a01.d4zs.pics` sent the next hour). A whole host listed by
 * a Korean smishing feed (detection-lists.ts) therefore also stands for its registered domain's other hosts — through a separate
 * expression `~domain/`, looked up only when that domain can be a throw-away one: never a
 * shared platform (anyone publishes under it), a public suffix, a public body's suffix, a
 * well-known service (allowlist or top-sites list) or a URL shortener.
 */

/**
 * The campaign expression a listed whole host adds: only a sub-domain (`a05.d4zs.pics`; a listed
 * `d4zs.pics` or `www.d4zs.pics` already covers its own hosts), and only when its domain may
 * stand for a campaign.
 */
export function campaignExpression(host: string): string | undefined {
  // Most list entries are registered domains themselves: no sub-domain, nothing to parse.
  if (host.indexOf('.') === host.lastIndexOf('.')) return undefined;
  const domain = campaignDomain(host);
  return domain && host !== domain && host !== `www.${domain}` ? `~${domain}/` : undefined;
}

/** The registered domain a host's campaign would be, if one may be. */
export function campaignDomain(host: string): string | undefined {
  const parsed = parse(host, { allowPrivateDomains: true });
  const domain = parsed.domain;
  if (parsed.isIp || !domain || parsed.isPrivate || !parsed.publicSuffix) return undefined;
  if (SHARED_HOSTING.has(domain) || isSharedPlatformHost(host) || isInstitutionalSuffix(parsed.publicSuffix)) return undefined;
  if (shortenerOf(domain) || isFirstParty(host, domain, parsed.publicSuffix)) return undefined;
  return domain;
}
