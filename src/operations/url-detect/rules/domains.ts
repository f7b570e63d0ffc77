import { parse as parseDomain } from 'tldts';
import { BRANDS, DOMAINS } from './tables.js';

const { firstParty, firstPartySuffixes, untrustedHosts, sharedHosting, koreanFreeSubdomains, infrastructure, cheapTlds } = DOMAINS;

/** Suffixes whose every domain belongs to the state. */
const FIRST_PARTY_SUFFIXES = firstPartySuffixes;
/** Hosts of allowlisted domains where anyone can publish: judged like any other host. */
const UNTRUSTED_HOSTS: ReadonlySet<string> = new Set(untrustedHosts);

/**
 * Shared hosting and free-subdomain services: the subdomain is somebody else's site, so the
 * platform itself is never allowlisted and a brand name in the subdomain is impersonation.
 */
export const SHARED_HOSTING: ReadonlySet<string> = new Set(sharedHosting);

/** Free Korean subdomain services, singled out in reasons. */
export const KOREAN_FREE_SUBDOMAINS: ReadonlySet<string> = new Set(koreanFreeSubdomains);

/**
 * CDN, DNS and load-balancer zones: their hostnames are CNAME targets that repeat a customer's
 * name (`apple.com.akadns.net`, `paypal.com.cdn.cloudflare.net`), not pages anyone publishes.
 */
const INFRASTRUCTURE: ReadonlySet<string> = new Set(infrastructure);

/** Hosts under a private public suffix (`x.github.io`, `x.r2.dev`) or where anyone can publish. */
export function isSharedPlatformHost(host: string): boolean {
  return UNTRUSTED_HOSTS.has(host) || parseDomain(host, { allowPrivateDomains: true }).isPrivate === true;
}

export function isInfrastructure(domain: string | undefined): boolean {
  return domain !== undefined && INFRASTRUCTURE.has(domain);
}

/** URL shorteners: a data table (data/shorteners.json). */
export { SHORTENERS } from '../expansion/shorteners.js';

/** Cheap or heavily abused top-level domains (Spamhaus / Interisle abuse rankings). */
export const CHEAP_TLDS: ReadonlySet<string> = new Set(cheapTlds);

/**
 * First-party allowlist (data/domains.json `firstParty`): registrable domains of well-known
 * Korean and global services. A URL on one of them (or a subdomain) is clean unless a list
 * names that exact page. Brand domains (data/brands.json) are included automatically.
 */
const allowlisted = new Set([...firstParty, ...BRANDS.flatMap((brand) => brand.domains)]);

/** True when the host belongs to an allowlisted first party (never a shared platform). */
export function isFirstParty(host: string, domain: string | undefined, publicSuffix: string): boolean {
  if (!domain || UNTRUSTED_HOSTS.has(host) || SHARED_HOSTING.has(domain)) return false;
  if (FIRST_PARTY_SUFFIXES.includes(publicSuffix)) return true;
  return allowlisted.has(domain) || allowlisted.has(host);
}

/** True when `domain`/`host` is one of `owned` (a registrable domain or a public suffix). */
export function ownedBy(host: string, domain: string | undefined, publicSuffix: string, owned: readonly string[]): boolean {
  return owned.some((d) => d === domain || d === publicSuffix || host === d || host.endsWith(`.${d}`));
}

/** Suffixes only public bodies and schools can register (`go.id`, `gov.tr`, `edu`, `ac.uk`…). */
const INSTITUTIONAL_SUFFIX = /(^|\.)(gov|mil|govt|gob|gouv|gv|go|government|edu|ac)(\.|$)/;

/**
 * Nobody picks a name under these to look harmful: when such a host is on a list it was broken
 * into, so its name says nothing about the next one.
 */
export function isInstitutionalSuffix(publicSuffix: string | undefined): boolean {
  return publicSuffix !== undefined && INSTITUTIONAL_SUFFIX.test(publicSuffix);
}
