import { getDomain, getDomainWithoutSuffix } from 'tldts';
import { HARM_CATEGORIES } from '../lists/list-index.js';

/** Class 0 is clean; the others are the harm categories in HARM_CATEGORIES order. */
export const CLASSES = ['clean', ...HARM_CATEGORIES] as const;
export type ExampleClass = (typeof CLASSES)[number];
const K = CLASSES.length;

export interface Row {
  host: string;
  label: number;
  hash: number;
}

/** Deduplicated hosts per class, capped by a hash sample; a host on a harm list is never a clean example. */
export async function sampleExamples(
  examples: Map<ExampleClass, Iterable<string>>,
  maxHarm: number,
  maxClean: number,
  yieldEvery: number,
): Promise<Row[]> {
  const harmful = new Set<string>();
  const rows: Row[] = [];
  for (let label = 1; label < K; label++) {
    const hosts = new Set(examples.get(CLASSES[label]!) ?? []);
    for (const host of hosts) harmful.add(host);
    rows.push(...capped([...hosts], label, maxHarm));
    await pause();
  }
  // Top-sites lists are mostly service hosts (api.x.com); the sites users open are registrable
  // domains, so those are clean examples too — else "no subdomain" would read as harmful.
  const cleanHosts = new Set(examples.get('clean') ?? []);
  await eachYielding([...cleanHosts], yieldEvery, (host) => {
    const domain = getDomain(host);
    if (domain) cleanHosts.add(domain);
  });
  // Adult and gambling sites rotate suffixes (a listed name.com, a popular name.cam): a popular
  // host whose name a harm feed lists is a mirror of that site, no clean example.
  // (Only those two: phishing pages on x.github.io must not drop github.com.)
  const listedNames = new Set<string>();
  for (const category of ['adult', 'gambling'] as const) {
    await eachYielding(examples.get(category) ?? [], yieldEvery, (host) => {
      const name = getDomainWithoutSuffix(host, { allowPrivateDomains: true });
      if (name && name.length >= 5) listedNames.add(name);
    });
  }
  const clean: string[] = [];
  await eachYielding(cleanHosts, yieldEvery, (host) => {
    if (!harmful.has(host) && !listedNames.has(getDomainWithoutSuffix(host, { allowPrivateDomains: true }) ?? '')) clean.push(host);
  });
  rows.push(...capped(clean, 0, maxClean));
  return rows;
}

export const pause = () => new Promise((resolve) => setImmediate(resolve));

/** Calls `each` on every item, giving the event loop a turn every `every` items (a refresh must not hold requests up). */
async function eachYielding<T>(items: Iterable<T>, every: number, each: (item: T) => void): Promise<void> {
  let n = 0;
  for (const item of items) {
    each(item);
    if (++n % every === 0) await pause();
  }
}

function capped(hosts: string[], label: number, max: number): Row[] {
  const rows = hosts.map((host) => ({ host, label, hash: stableHash(host) }));
  if (rows.length <= max) return rows;
  return rows.sort((a, b) => a.hash - b.hash).slice(0, max);
}

/** The hash that orders hosts for sampling: the same feeds always give the same sample. */
export function stableHash(text: string): number {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return (hash >>> 0) % 1_000_003;
}
