import { parse } from 'tldts';
import type { CanonicalUrl } from './canonicalize.js';
import { isInstitutionalSuffix, SHARED_HOSTING } from './domains.js';
import { expressionHash, HashCollector, HashSet64, HARM_CATEGORIES, type HarmCategory } from './list-index.js';
import { CATEGORY_LABEL, type Signal } from './signals.js';

/**
 * Domain families: gambling, adult and scam sites move to a new name when the old one is
 * blocked, and the new name is mostly the old one with another number or suffix
 * (`bet-king12.com` → `betking13.net`). The "stem" of a registrable domain is its name left of
 * the public suffix, lower-case, hyphens dropped and every digit run read as one `#`. A URL on
 * no list whose stem is the stem of a listed domain belongs to that family.
 *
 * Phishing and malware lists are left out: their names are mostly the victims' brands
 * (`office365-verify.top`), so a family there would condemn the brand's next domain.
 */
export const FAMILY_CATEGORIES: readonly HarmCategory[] = ['spam', 'gambling', 'adult'];

/** A stem needs this many letters to name one family rather than a common word. */
export const MIN_STEM_LETTERS = 5;

/**
 * The family stem of a host, or undefined when it has none: IPs, hosts under a shared-hosting
 * or other private suffix (anyone registers `x.github.io`), and stems under five letters.
 */
export function familyStem(host: string): string | undefined {
  const parsed = parse(host, { allowPrivateDomains: true });
  if (parsed.isIp || !parsed.domain || parsed.isPrivate || SHARED_HOSTING.has(parsed.domain)) return undefined;
  const name = parsed.domainWithoutSuffix;
  if (!name) return undefined;
  const stem = name.toLowerCase().replace(/-/g, '').replace(/[0-9]+/g, '#');
  let letters = 0;
  for (let i = 0; i < stem.length; i++) if (stem.charCodeAt(i) !== 35) letters++;
  return letters >= MIN_STEM_LETTERS ? stem : undefined;
}

/**
 * Up to two registrable domains per stem (a second one shows the name already rotates), as a
 * feed's entries stream by: `domain` or `domain\tother` a stem. Only entries naming a whole
 * registrable domain count (the caller passes whole-host entries only): a listed page
 * (`shop.example/login.php`) is often a hacked site whose own name is innocent.
 */
export class FamilyCollector {
  private readonly stems = new Map<string, number>();
  private readonly members: string[] = [];

  add(host: string): void {
    const stem = familyStem(host);
    if (stem === undefined) return;
    // A listed subdomain (`clips.bigvideo.com` in a hosts file) says nothing of its parent's name.
    const domain = parse(host).domain;
    if (!domain || (host !== domain && host !== `www.${domain}`)) return;
    const at = this.stems.get(stem);
    if (at === undefined) {
      this.stems.set(stem, this.members.length);
      this.members.push(domain);
    } else {
      const known = this.members[at]!;
      if (!known.includes('\t') && known !== domain) this.members[at] = `${known}\t${domain}`;
    }
  }

  finish(): string[] {
    this.stems.clear();
    return this.members.splice(0);
  }
}

export interface FamilyHit {
  category: HarmCategory;
  /** The listed registrable domain of the same family. */
  relative: string;
  stem: string;
  /** The lists name two or more domains of the family, or its names differ by a number: it rotates. */
  rotates: boolean;
}

const YIELD_EVERY = 50_000;
const pause = () => new Promise((resolve) => setImmediate(resolve));

/**
 * The families of the loaded lists: stems as sorted 64-bit hashes in two 32-bit lanes, a
 * category byte and an offset into one string of representative names — about 30 bytes a
 * family, no object per entry. Stems a clean (top-sites) feed also uses are left out.
 */
export class DomainFamilies {
  private constructor(
    private readonly highs: Uint32Array,
    private readonly lows: Uint32Array,
    private readonly categories: Uint8Array,
    private readonly starts: Uint32Array,
    private readonly names: string,
  ) {}

  static empty(): DomainFamilies {
    return new DomainFamilies(new Uint32Array(0), new Uint32Array(0), new Uint8Array(0), new Uint32Array(1), '');
  }

  /**
   * `harm`: each harm feed's representative domains with its category (feed order decides
   * between categories); `clean`: the representative domains of the clean feeds, whose stems,
   * digits aside, name no family.
   */
  static async build(
    harm: readonly { category: HarmCategory; domains: readonly string[] }[],
    clean: readonly (readonly string[])[],
  ): Promise<DomainFamilies> {
    // Compared without digits: `riverpaper.com` among the top sites vetoes `riverpaper77.com`'s family too.
    const veto = new HashCollector();
    for (const domains of clean)
      for (const domain of domains) {
        const stem = familyStem(domain);
        if (stem !== undefined) veto.add(lettersOf(stem));
      }
    // Platform names (a listed `blogspot.xx` is one blog, not a family of blogspot).
    for (const domain of SHARED_HOSTING) veto.add(lettersOf(domain.slice(0, domain.indexOf('.')).replace(/-/g, '')));
    const vetoed = HashSet64.of(veto.finish());
    const seen = new Map<string, number>();
    const rows: { high: number; low: number; category: number; name: string; rotates: boolean }[] = [];
    let done = 0;
    for (const feed of harm) {
      if (!FAMILY_CATEGORIES.includes(feed.category)) continue;
      const category = HARM_CATEGORIES.indexOf(feed.category);
      for (const line of feed.domains) {
        if (++done % YIELD_EVERY === 0) await pause();
        const [domain = '', other] = line.split('\t');
        const stem = familyStem(domain);
        if (stem === undefined || vetoed.has(lettersOf(stem))) continue;
        const at = seen.get(stem);
        if (at !== undefined) {
          // Named again by another list: a second domain shows rotation.
          const row = rows[at]!;
          if (row.name !== domain || other !== undefined) row.rotates = true;
          continue;
        }
        seen.set(stem, rows.length);
        const [high, low] = lanes(stem);
        rows.push({ high, low, category, name: domain, rotates: other !== undefined || stem.includes('#') });
      }
    }
    seen.clear();
    rows.sort((a, b) => a.high - b.high || a.low - b.low);
    const highs = Uint32Array.from(rows, (row) => row.high);
    const lows = Uint32Array.from(rows, (row) => row.low);
    // The category in the low bits, rotation in the top one.
    const categories = Uint8Array.from(rows, (row) => row.category | (row.rotates ? 0x80 : 0));
    const starts = new Uint32Array(rows.length + 1);
    let at = 0;
    rows.forEach((row, i) => {
      starts[i] = at;
      at += row.name.length;
    });
    starts[rows.length] = at;
    return new DomainFamilies(highs, lows, categories, starts, rows.map((row) => row.name).join(''));
  }

  get size(): number {
    return this.highs.length;
  }

  /** The listed family this host belongs to, if any (one hash and a bisection). */
  lookup(host: string): FamilyHit | undefined {
    if (this.highs.length === 0) return undefined;
    const stem = familyStem(host);
    if (stem === undefined) return undefined;
    const [high, low] = lanes(stem);
    let from = 0;
    let to = this.highs.length;
    while (from < to) {
      const mid = (from + to) >>> 1;
      const h = this.highs[mid]!;
      if (h < high || (h === high && this.lows[mid]! < low)) from = mid + 1;
      else to = mid;
    }
    if (from >= this.highs.length || this.highs[from] !== high || this.lows[from] !== low) return undefined;
    const relative = this.names.slice(this.starts[from], this.starts[from + 1]);
    const flags = this.categories[from]!;
    return { category: HARM_CATEGORIES[flags & 0x7f]!, relative, stem, rotates: (flags & 0x80) !== 0 };
  }
}

function lettersOf(stem: string): string {
  return stem.replace(/#/g, '');
}

/** The two 32-bit lanes of a stem's 64-bit hash (the list index's hash). */
function lanes(stem: string): [number, number] {
  const hash = expressionHash(stem);
  return [Number(hash >> 32n) >>> 0, Number(hash & 0xffffffffn) >>> 0];
}

/**
 * A listed family as a signal. A family that rotates (two listed domains, or names that differ
 * by a number) calls the URL harmful alone; one listed name under another suffix only adds
 * weight, as the model's suspicious band does (famous names turn up on adult and scam lists
 * under a foreign suffix), and so does any family under a suffix only public bodies and
 * schools register. Never decisive: a domain of the top-sites list needs more than its name.
 */
export function familySignals(url: CanonicalUrl, families: DomainFamilies | undefined): Signal[] {
  if (!families || url.ipVersion) return [];
  const hit = families.lookup(url.host);
  if (!hit) return [];
  return [
    {
      category: hit.category,
      weight: isInstitutionalSuffix(url.publicSuffix) ? 30 : hit.rotates ? 50 : 35,
      reason: `목록에 오른 ${CATEGORY_LABEL[hit.category]} 주소(${hit.relative})와 이름이 같은 계열(숫자·하이픈·도메인 끝만 다름)`,
    },
  ];
}
