import { parse } from 'tldts';
import type { CanonicalUrl } from '../canonicalize.js';
import { isInstitutionalSuffix, SHARED_HOSTING } from '../rules/domains.js';
import { HashCollector, hashLanesInto, HashSet64, HARM_CATEGORIES, type HarmCategory } from '../lists/list-index.js';
import { CATEGORY_LABEL, type Signal } from '../signals.js';
import { VOCABULARIES, WEIGHTS } from '../rules/tables.js';

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

/**
 * Where a second listed suffix of one name shows rotation. Scam shops wear the names of the
 * brands they fake (`buyshop.life`, `buyshop.top`), so for spam only a changing number counts.
 */
const SUFFIX_ROTATION: readonly HarmCategory[] = ['gambling', 'adult'];

/** A stem needs this many letters to name one family rather than a common word. */
export const MIN_STEM_LETTERS = 5;

/**
 * The family stem of a host, or undefined when it has none: IPs, hosts under a shared-hosting
 * or other private suffix (anyone registers `x.github.io`), and stems under five letters.
 */
export function familyStem(host: string): string | undefined {
  return stemAndDomain(host)?.stem;
}

function stemAndDomain(host: string): { stem: string; domain: string } | undefined {
  const parsed = parse(host, { allowPrivateDomains: true });
  // Outside private suffixes this registrable domain is the ICANN one.
  const domain = parsed.domain;
  const name = parsed.domainWithoutSuffix;
  if (parsed.isIp || !domain || !name || parsed.isPrivate || SHARED_HOSTING.has(domain)) return undefined;
  const stem = name
    .toLowerCase()
    .replace(/-/g, '')
    .replace(/[0-9]+/g, '#');
  let letters = 0;
  for (let i = 0; i < stem.length; i++) if (stem.charCodeAt(i) !== 35) letters++;
  return letters >= MIN_STEM_LETTERS ? { stem, domain } : undefined;
}

/**
 * A feed's families as its entries stream by, one line a stem: `stem\tdomain`, or
 * `stem\tdomain\tother` once a second domain shows the name already rotates. Only entries
 * naming a whole registrable domain count (the caller passes whole-host entries only): a listed
 * page (`shop.example/login.php`) is often a hacked site whose own name is innocent.
 */
export class FamilyCollector {
  private readonly stems = new Map<string, number>();
  private readonly lines: string[] = [];

  add(host: string): void {
    const found = stemAndDomain(host);
    // A listed subdomain (`clips.bigvideo.com` in a hosts file) says nothing of its parent's name.
    if (!found || (host !== found.domain && host !== `www.${found.domain}`)) return;
    const at = this.stems.get(found.stem);
    if (at === undefined) {
      this.stems.set(found.stem, this.lines.length);
      this.lines.push(`${found.stem}\t${found.domain}`);
      return;
    }
    const line = this.lines[at]!;
    if (line.indexOf('\t') === line.lastIndexOf('\t') && !line.endsWith(`\t${found.domain}`)) this.lines[at] = `${line}\t${found.domain}`;
  }

  /** The lines joined by newlines (one flat string, not a string a stem). */
  finish(): string {
    this.stems.clear();
    return this.lines.splice(0).join('\n');
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
/** Row numbers ride in the low 24 bits of the sort key. */
const MAX_FAMILIES = 1 << 24;
const ROTATES = 0x80;
const lanes = new Uint32Array(2);

/**
 * The families of the loaded lists in parallel arrays sorted by a 40-bit hash of the stem
 * (32-bit high lane, 8-bit low), a flags byte (category, rotation) and an offset into one
 * string of the listed names: 10 bytes and the name a family, no object per entry. A hash
 * match is confirmed by the listed name's own stem, so a collision never names a wrong family.
 */
export class DomainFamilies {
  private constructor(
    private readonly highs: Uint32Array,
    private readonly lows: Uint8Array,
    private readonly flags: Uint8Array,
    private readonly starts: Uint32Array,
    private readonly names: string,
  ) {}

  static empty(): DomainFamilies {
    return new DomainFamilies(new Uint32Array(0), new Uint8Array(0), new Uint8Array(0), new Uint32Array(1), '');
  }

  /**
   * `harm`: each harm feed's collected text with its category (feed order decides between
   * categories); `clean`: the clean feeds' texts, whose stems, digits aside, name no family.
   * Rows are kept as offsets into those texts, never as a string each.
   */
  static async build(harm: readonly { category: HarmCategory; text: string }[], clean: readonly string[]): Promise<DomainFamilies> {
    // Compared without digits: `riverpaper.com` among the top sites vetoes `riverpaper77.com`'s family too.
    const veto = new HashCollector();
    for (const text of clean) for (const at of lineStarts(text)) veto.add(lettersOf(text.slice(at, text.indexOf('\t', at))));
    // Platform names (a listed `blogspot.xx` is one blog, not a family of blogspot).
    for (const domain of SHARED_HOSTING) veto.add(lettersOf(domain.slice(0, domain.indexOf('.')).replace(/-/g, '')));
    // A name that is one word of the harm vocabularies (`lotto.net` listed) is a common word, not a
    // family: `lotto.co.kr` is no relative. The word itself is weighed by the vocabulary rules.
    for (const word of vocabularyWords()) veto.add(word);
    const vetoed = HashSet64.of(veto.finish());

    // At most 255 feeds (a row's feed is one byte).
    const feeds = harm.filter((feed) => FAMILY_CATEGORIES.includes(feed.category) && feed.text.length > 0).slice(0, 255);
    const capacity = Math.min(
      MAX_FAMILIES,
      feeds.reduce((total, feed) => total + lineStarts(feed.text).length, 0),
    );
    const rowFeed = new Uint8Array(capacity);
    const rowStart = new Uint32Array(capacity);
    const rowFlags = new Uint8Array(capacity);
    const words = new Uint32Array(2 * capacity);
    let rows = 0;
    let done = 0;
    for (const [f, feed] of feeds.entries()) {
      const category = HARM_CATEGORIES.indexOf(feed.category);
      for (const at of lineStarts(feed.text)) {
        if (++done % YIELD_EVERY === 0) await pause();
        if (rows >= capacity) break;
        const stem = feed.text.slice(at, feed.text.indexOf('\t', at));
        if (vetoed.has(lettersOf(stem))) continue;
        const end = lineEnd(feed.text, at);
        const other = feed.text.indexOf('\t', at + stem.length + 1);
        const rotates = stem.includes('#') || (other !== -1 && other < end && SUFFIX_ROTATION.includes(feed.category));
        rowFeed[rows] = f;
        rowStart[rows] = at;
        rowFlags[rows] = category | (rotates ? ROTATES : 0);
        hashLanesInto(stem, lanes);
        // The little-endian words of one 64-bit key: the high lane, then the low lane's last byte and the row.
        words[2 * rows + 1] = lanes[0]!;
        words[2 * rows] = (((lanes[1]! & 0xff) << 24) | rows) >>> 0;
        rows++;
      }
    }
    const field = (row: number, index: 0 | 1) => {
      const text = feeds[rowFeed[row]!]!.text;
      const at = rowStart[row]!;
      const tab = text.indexOf('\t', at);
      if (index === 0) return text.slice(at, tab);
      const next = text.indexOf('\t', tab + 1);
      const end = lineEnd(text, at);
      return text.slice(tab + 1, next === -1 || next > end ? end : next);
    };
    // A native sort of the keys: equal stems end up together, in feed order.
    new BigUint64Array(words.buffer, 0, rows).sort();
    await pause();
    const kept = new Uint32Array(rows);
    const highs = new Uint32Array(rows);
    const lows = new Uint8Array(rows);
    const flags = new Uint8Array(rows);
    let size = 0;
    for (let i = 0; i < rows; i++) {
      const high = words[2 * i + 1]!;
      const low = words[2 * i]! >>> 24;
      const row = words[2 * i]! & 0xffffff;
      let same = -1;
      for (let k = size - 1; k >= 0 && highs[k] === high && lows[k] === low; k--) if (field(kept[k]!, 0) === field(row, 0)) same = k;
      if (same >= 0) {
        // The same stem from another list: a second domain, or one that rotates there, makes it rotate.
        const category = HARM_CATEGORIES[flags[same]! & ~ROTATES]!;
        if (SUFFIX_ROTATION.includes(category) && (field(kept[same]!, 1) !== field(row, 1) || (rowFlags[row]! & ROTATES) !== 0))
          flags[same]! |= ROTATES;
        continue;
      }
      kept[size] = row;
      highs[size] = high;
      lows[size] = low;
      flags[size] = rowFlags[row]!;
      size++;
    }
    const starts = new Uint32Array(size + 1);
    const names: string[] = [];
    let offset = 0;
    for (let i = 0; i < size; i++) {
      const name = field(kept[i]!, 1);
      starts[i] = offset;
      offset += name.length;
      names.push(name);
    }
    starts[size] = offset;
    return new DomainFamilies(highs.slice(0, size), lows.slice(0, size), flags.slice(0, size), starts, names.join(''));
  }

  get size(): number {
    return this.highs.length;
  }

  /** The listed family this host belongs to, if any (one parse, one hash, a bisection). */
  lookup(host: string): FamilyHit | undefined {
    if (this.highs.length === 0) return undefined;
    const stem = familyStem(host);
    if (stem === undefined) return undefined;
    hashLanesInto(stem, lanes);
    const high = lanes[0]!;
    const low = lanes[1]! & 0xff;
    let from = 0;
    let to = this.highs.length;
    while (from < to) {
      const mid = (from + to) >>> 1;
      const h = this.highs[mid]!;
      if (h < high || (h === high && this.lows[mid]! < low)) from = mid + 1;
      else to = mid;
    }
    for (let i = from; i < this.highs.length && this.highs[i] === high && this.lows[i] === low; i++) {
      const relative = this.names.slice(this.starts[i], this.starts[i + 1]);
      if (familyStem(relative) !== stem) continue;
      const flags = this.flags[i]!;
      return { category: HARM_CATEGORIES[flags & ~ROTATES]!, relative, stem, rotates: (flags & ROTATES) !== 0 };
    }
    return undefined;
  }
}

/** Where each non-empty line of a text starts. */
function lineStarts(text: string): number[] {
  const starts: number[] = [];
  for (let at = 0; at < text.length;) {
    const end = lineEnd(text, at);
    if (end > at) starts.push(at);
    at = end + 1;
  }
  return starts;
}

function lineEnd(text: string, at: number): number {
  const end = text.indexOf('\n', at);
  return end === -1 ? text.length : end;
}

/** The plain words of the host vocabularies (`slots?(?!h)` gives slot and slots; patterns with more syntax are skipped). */
function vocabularyWords(): string[] {
  const words: string[] = [];
  for (const vocabulary of VOCABULARIES) {
    for (const term of [...vocabulary.host, ...vocabulary.bounded, ...vocabulary.weakHost]) {
      const plain = term.replace(/\(\?!.*?\)/g, '');
      if (/^[a-z]+$/.test(plain)) words.push(plain);
      else if (/^[a-z]+s\?$/.test(plain)) words.push(plain.slice(0, -2), plain.slice(0, -1));
    }
  }
  return words;
}

function lettersOf(stem: string): string {
  return stem.replace(/#/g, '');
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
      weight: isInstitutionalSuffix(url.publicSuffix)
        ? WEIGHTS.families.institutional
        : hit.rotates
          ? WEIGHTS.families.rotates
          : WEIGHTS.families.single,
      reason: `목록에 오른 ${CATEGORY_LABEL[hit.category]} 주소(${hit.relative})와 이름이 같은 계열(숫자·하이픈·도메인 끝만 다름)`,
    },
  ];
}
