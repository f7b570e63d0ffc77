import { withJosa } from '../../../korean.js';
import type { CanonicalUrl } from '../canonicalize.js';
import type { Signal } from '../signals.js';
import { isInfrastructure, isInstitutionalSuffix, ownedBy, SHARED_HOSTING } from './domains.js';
import { editDistance } from './similarity.js';
import { BRANDS, DOMAINS, WEIGHTS, type Brand } from './tables.js';

/**
 * Korean smishing's throw-away domains glue the name of a carrier, bank, card company, telecom,
 * public body or portal to a few meaningless letters, often misspelling it on the way
 * (`cjlogisticss`, `ilogensn`, `ilogekonk`, `lottegskkm`, `lguplusm`): a new domain for each
 * campaign, so no list knows it yet. The brands watched are those of `data/brands.json` with a
 * `sector`; their names are matched at the start of the registered domain's own label only
 * (`charlotte` never reads as `lotte`), and the brand's own domains are never flagged.
 */

const POINTS = WEIGHTS.lookalike;

interface Stem {
  brand: Brand;
  stem: string;
}

/** Longest first, so `lottecard` is read before `lotte`. */
const STEMS: readonly Stem[] = BRANDS.filter((brand) => brand.sector !== undefined)
  .flatMap((brand) =>
    [...new Set([...brand.tokens, ...(brand.stems ?? [])])]
      .filter((stem) => stem.length >= POINTS.minStem && /^[a-z]+$/.test(stem))
      .map((stem) => ({ brand, stem })),
  )
  .sort((a, b) => b.stem.length - a.stem.length);

interface Glued {
  brand: Brand;
  stem: string;
  /** What the label starts with: the stem, or a one-edit misspelling of it. */
  head: string;
  rest: string;
}

/** A brand's name (or a one-letter misspelling of a long one) glued to a few letters at the start of the domain's label. */
export function gluedBrand(url: CanonicalUrl): Glued | undefined {
  if (url.ipVersion || !url.domain || SHARED_HOSTING.has(url.domain) || isInfrastructure(url.domain)) return undefined;
  if (isInstitutionalSuffix(url.publicSuffix)) return undefined;
  const label = url.domainLabel.replace(/-/g, '');
  if (label.startsWith('xn--')) return undefined;
  const batchHost = randomSubdomain(url);
  for (const { brand, stem } of STEMS) {
    const glued = gluedTo(label, stem, batchHost);
    if (!glued || ownedBy(url.host, url.domain, url.publicSuffix, brand.domains)) continue;
    // Honest sister sites glue words (`kakaoent`, `logentries`): a pronounceable rest needs the
    // campaign's other mark too, a short random sub-domain label (`vds.ilogenis.com`).
    return meaningless(glued.rest) || (glued.rest.length <= POINTS.maxRest - 1 && batchHost) ? { brand, stem, ...glued } : undefined;
  }
  return undefined;
}

const vowels = (text: string) => (text.match(/[aeiouy]/g) ?? []).length;
/** Letters no word is made of: no vowel at all (`s`, `gskkm`, `m`). */
const meaningless = (rest: string) => rest.length > 0 && vowels(rest) === 0 && !/^\d+$/.test(rest);
const SERVICE_LABELS: ReadonlySet<string> = new Set(DOMAINS.serviceLabels);

/** One sub-domain label of two to four letters with at most one vowel, not a service's usual name (`cdn`, `api`). */
function randomSubdomain(url: CanonicalUrl): boolean {
  const label = url.subdomain;
  return /^[a-z0-9]{2,4}$/.test(label) && vowels(label) <= 1 && !SERVICE_LABELS.has(label);
}

function gluedTo(label: string, stem: string, batchHost: boolean): { head: string; rest: string } | undefined {
  if (label.startsWith(stem)) {
    const rest = label.slice(stem.length);
    return rest.length >= 1 && rest.length <= POINTS.maxRest ? { head: stem, rest } : undefined;
  }
  // Misspelt: the first letter kept (readers anchor on it), one edit; only long names, unless the
  // host also has a batch sub-domain (`kks.logesk.com`), which may also be the misspelling alone
  // (`kko.iilogen.com`).
  if (stem.length < (batchHost ? POINTS.minStem : POINTS.minTypoStem) || label[0] !== stem[0]) return undefined;
  const leastRest = batchHost ? 0 : 1;
  for (const length of [stem.length - 1, stem.length, stem.length + 1]) {
    const head = label.slice(0, length);
    const rest = label.slice(length);
    if (head.length === length && rest.length >= leastRest && rest.length <= POINTS.maxRest && editDistance(head, stem, 1) === 1)
      return { head, rest };
  }
  return undefined;
}

const SMS_SENDER = new RegExp(DOMAINS.smsSenderWords.join('|'));

/**
 * A registered name that wears bulk text sending (`smsmak`, `halfsmsni`, `balsongkin`,
 * `munjastor`) beside a short random sub-domain label (`bsm.halfsmsni.com`): the shape of a
 * smishing campaign's host that poses as the text's sender. Without the batch label (`www.`,
 * `api.`, none) an SMS service's own site is left alone.
 */
export function smsSenderSignals(url: CanonicalUrl): Signal[] {
  if (url.ipVersion || !url.domain || SHARED_HOSTING.has(url.domain) || isInfrastructure(url.domain)) return [];
  if (isInstitutionalSuffix(url.publicSuffix) || !randomSubdomain(url)) return [];
  const word = SMS_SENDER.exec(url.domainLabel.replace(/-/g, ''))?.[0];
  if (!word) return [];
  return [
    {
      category: 'phishing',
      weight: POINTS.smsSender,
      reason: `문자 발송을 뜻하는 이름('${word}')의 도메인(${url.domain})에 무작위 하위 도메인('${url.subdomain}')을 붙인 주소: 대량 발송 스미싱 주소의 특징`,
    },
  ];
}

export function lookalikeSignals(url: CanonicalUrl): Signal[] {
  const glued = gluedBrand(url);
  if (!glued) return [];
  const { brand, stem, head, rest } = glued;
  const shown = `'${head}${rest ? `+${rest}` : ''}'`;
  const reason =
    head === stem
      ? `${brand.name}의 이름('${stem}')에 의미 없는 글자('${rest}')를 붙인 도메인(${url.domain}, ${brand.name}의 도메인이 아님): 택배·금융·통신사를 사칭하는 스미싱 주소의 전형적인 형태`
      : `${brand.name}의 이름('${stem}')을 한 글자 틀리게 쓴 유사 도메인(${url.domain}, ${withJosa(shown, '으로/로')} 시작): 택배·금융·통신사를 사칭하는 스미싱 주소의 전형적인 형태`;
  return [{ category: 'phishing', weight: head === stem ? POINTS.glued : POINTS.misspelt, reason }];
}
