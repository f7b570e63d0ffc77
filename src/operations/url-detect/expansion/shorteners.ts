import { z } from 'zod';
import table from '../data/shorteners.json' with { type: 'json' };

/** Host names, lower-case, at least one dot: a typo in the table stops the start with the entry named. */
const hostName = z.string().regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'a lower-case host name');
const shortenerTable = z.object({ hosts: z.array(hostName).min(1) });

/** The shipped list (data/shorteners.json), validated when the module loads. */
const SHIPPED = shortenerTable.parse(table).hosts;

/** Public URL shorteners: the destination is hidden, which is why spam and smishing love them. */
export const SHORTENERS: ReadonlySet<string> = new Set(SHIPPED);

/** The shipped list plus `URL_EXPAND_SHORTENERS` (comma-separated host names; a bad one is an error naming it). */
export function shortenerHosts(extra: string | undefined): Set<string> {
  const added = (extra ?? '')
    .split(',')
    .map((host) => host.trim().toLowerCase())
    .filter(Boolean)
    .map((host) => {
      const parsed = hostName.safeParse(host);
      if (!parsed.success) throw new Error(`URL_EXPAND_SHORTENERS: '${host}' is not a host name`);
      return parsed.data;
    });
  return new Set([...SHIPPED, ...added]);
}

/** The host a URL shortener serves (`www.` aside), or undefined. */
export function shortenerOf(host: string, shorteners: ReadonlySet<string> = SHORTENERS): string | undefined {
  const bare = host.startsWith('www.') ? host.slice(4) : host;
  return shorteners.has(bare) ? bare : undefined;
}
