import { withJosa } from '../../../korean.js';
import type { CanonicalUrl } from '../canonicalize.js';
import { CHEAP_TLDS, isInfrastructure, ownedBy, SHARED_HOSTING } from './domains.js';
import type { Signal } from '../signals.js';
import { charCounts, countsDistance, editDistance, skeleton } from './similarity.js';
import { BRANDS, VOCABULARIES, WEIGHTS, type Brand, type Vocabulary } from './tables.js';

/** The part of the host that its owner chose: labels left of the public suffix (or of a shared platform). */
export function ownHostText(url: CanonicalUrl): string {
  if (url.ipVersion) return '';
  // Counted in labels and read from the Unicode host, so Korean IDN labels stay readable.
  const suffix = url.domain && SHARED_HOSTING.has(url.domain) ? url.domain : url.publicSuffix;
  const labels = url.hostUnicode.split('.');
  return labels.slice(0, labels.length - (suffix ? suffix.split('.').length : 1)).join('.');
}

interface CompiledVocabulary {
  vocabulary: Vocabulary;
  host: RegExp;
  weakHost: RegExp | undefined;
  bounded: RegExp;
  pathWords: RegExp;
  korean: RegExp;
  koreanStrong: RegExp | undefined;
}

const compiled: CompiledVocabulary[] = VOCABULARIES.map((vocabulary) => ({
  vocabulary,
  host: new RegExp(`(${vocabulary.host.join('|')})`, 'g'),
  weakHost: vocabulary.weakHost.length > 0 ? new RegExp(`(${vocabulary.weakHost.join('|')})`, 'g') : undefined,
  bounded: new RegExp(`(?<![a-z])(${vocabulary.bounded.join('|')})(?![a-z])`, 'g'),
  // Bounded words are too common in paths (event, cash...) except the names of malware payloads.
  pathWords: new RegExp(
    `(?<![a-z])(${[...vocabulary.host, ...(vocabulary.category === 'malware' ? vocabulary.bounded : [])].join('|')})s?(?![a-z])`,
    'g',
  ),
  korean: new RegExp(`(${vocabulary.korean.join('|')})`, 'g'),
  koreanStrong: vocabulary.koreanStrong.length > 0 ? new RegExp(`(${vocabulary.koreanStrong.join('|')})`, 'g') : undefined,
}));

/** Two paired words decide alone; one is only a hint for the model or other rules to confirm. */
const { paired: PAIRED_WEIGHT, singlePaired: SINGLE_PAIRED_WEIGHT } = WEIGHTS.vocabulary;
/**
 * Tokens this short appear by chance inside words: they must stand alone as a label part.
 * Names shorter than MIN_TYPO_LENGTH have too many honest neighbours one letter away (jbbank,
 * kjbank and kbbank are three banks).
 */
const { shortTokenLength: SHORT_TOKEN_LENGTH, minTypoLength: MIN_TYPO_LENGTH } = WEIGHTS.brand;

function distinct(text: string, pattern: RegExp | undefined): string[] {
  if (!text || !pattern) return [];
  return [...new Set(Array.from(text.matchAll(pattern), (match) => match[1] ?? match[0]))];
}

/** Category vocabulary in the host (strong) and in the path and query (weaker, capped). */
export function vocabularySignals(url: CanonicalUrl): Signal[] {
  const hostText = ownHostText(url);
  // Hyphens split glued words (`gaein-don`): read the host with and without them.
  const hostJoined = hostText.includes('-') ? `${hostText} ${hostText.replace(/-/g, '')}` : hostText;
  const signals: Signal[] = [];
  const shared = url.domain !== undefined && SHARED_HOSTING.has(url.domain);
  for (const { vocabulary, host, weakHost, bounded, pathWords, korean, koreanStrong } of compiled) {
    const strong = [...new Set([...distinct(hostJoined, host), ...distinct(hostText, korean)])];
    // Phishing's bounded words (kr, m, pay...) are too common alone; the brand rule weighs them.
    const weak = vocabulary.category === 'phishing' ? [] : distinct(hostText, bounded).filter((w) => !strong.includes(w));
    // Two innocent words glued into one name (`hot` + `babes`) tell what one alone does not.
    // On shared hosting anyone picks any name: innocent words there say nothing.
    // A word already counted (strong, or bounded like `vegas`) is not counted again.
    const counted = [...strong, ...weak];
    const paired = shared ? [] : distinct(hostJoined, weakHost).filter((w) => !counted.some((c) => c.includes(w) || w.includes(c)));
    if (paired.length >= 2 && strong.length === 0) {
      signals.push({
        category: vocabulary.category,
        weight: PAIRED_WEIGHT,
        reason: `호스트에 ${vocabulary.label}로 자주 함께 쓰이는 단어('${paired[0]}', '${paired[1]}')가 붙어 있음`,
      });
    } else if (paired.length > 0) {
      signals.push({
        category: vocabulary.category,
        weight: strong.length > 0 ? vocabulary.extraWeight : SINGLE_PAIRED_WEIGHT,
        reason: `호스트에 ${vocabulary.label}와 어울리는 단어('${paired[0]}')가 들어 있음`,
      });
    }
    strong.forEach((word, index) => {
      const weight = index === 0 ? vocabulary.hostWeight : vocabulary.extraWeight;
      signals.push({ category: vocabulary.category, weight, reason: `호스트에 ${vocabulary.label}('${word}')가 들어 있음` });
    });
    weak.slice(0, 2).forEach((word, index) => {
      const weight = strong.length > 0 || index > 0 ? vocabulary.extraWeight : vocabulary.weakWeight;
      signals.push({ category: vocabulary.category, weight, reason: `호스트에 ${vocabulary.label}('${word}')가 들어 있음` });
    });
    const strongInPath = distinct(url.decodedText, koreanStrong);
    const inPath = [...distinct(url.decodedText, korean), ...distinct(url.decodedText, pathWords)].filter(
      (word) => !strongInPath.some((strongWord) => strongWord.includes(word) || word.includes(strongWord)),
    );
    for (const word of strongInPath.slice(0, 3)) {
      signals.push({
        category: vocabulary.category,
        weight: vocabulary.strongPathWeight,
        reason: `경로에 ${vocabulary.label}('${word}')가 들어 있음`,
      });
    }
    for (const word of inPath.slice(0, Math.max(0, 3 - strongInPath.length))) {
      signals.push({
        category: vocabulary.category,
        weight: vocabulary.pathWeight,
        reason: `경로에 ${vocabulary.label}('${word}')가 들어 있음`,
      });
    }
  }
  return signals;
}

interface BrandToken {
  brand: Brand;
  token: string;
  counts?: Int16Array;
}

// One alternation for all brands, so a URL is scanned once rather than once per brand.
const brandOfToken = new Map<string, Brand>();
for (const brand of BRANDS) for (const token of [...brand.tokens, ...brand.korean]) brandOfToken.set(token, brand);
const BRAND_TOKENS = new RegExp(
  [...brandOfToken.keys()]
    .sort((a, b) => b.length - a.length)
    .map((token) => (/^[a-z0-9]+$/.test(token) && token.length <= SHORT_TOKEN_LENGTH ? `(?<![a-z])${token}(?![a-z])` : token))
    .join('|'),
  'g',
);
const KOREAN_BRAND_TOKENS = new RegExp(BRANDS.flatMap((brand) => brand.korean).join('|'), 'g');
/** Domain labels worth comparing against for typos and homoglyphs (five letters or more). */
// Tokens and the brand's main domain only: CDN names (pstatic, gstatic) are no faces users know.
const BRAND_LABELS: BrandToken[] = BRANDS.flatMap((brand) =>
  [...new Set([...brand.tokens, brand.domains.find((d) => d.includes('.'))?.split('.')[0] ?? ''])]
    .filter((label) => label.length >= 5)
    .map((token) => ({ brand, token, counts: charCounts(token) })),
);

const PHISHY_HOST =
  /login|signin|verif|secure|account|auth|update|confirm|wallet|cert|otp|support|service|help|(?<![a-z])(kr|id|pay|m|mobile|center|event|check|web)(?![a-z])/;

/** A brand's name in a host the brand does not own; lookalikes of its domain (typos, homoglyphs). */
export function brandSignals(url: CanonicalUrl): Signal[] {
  // CDN and DNS hostnames carry their customers' names (apple.com.akadns.net): no page to fake.
  if (url.ipVersion || isInfrastructure(url.domain)) return [];
  const hostText = ownHostText(url);
  // `amazon.co.za`, `google.com.br`: the brand's own name under a country suffix is the brand's.
  const ownCountrySite = (brand: Brand) =>
    brand.tokens.includes(url.domainLabel) && !CHEAP_TLDS.has(url.publicSuffix.split('.').pop() ?? '');
  const notOwner = (brand: Brand) => !ownedBy(url.host, url.domain, url.publicSuffix, brand.domains) && !ownCountrySite(brand);
  const signals: Signal[] = [];
  const named = new Set<Brand>();

  for (const match of hostText.matchAll(BRAND_TOKENS)) {
    const brand = brandOfToken.get(match[0]);
    if (!brand || named.has(brand) || !notOwner(brand) || !touchesWordEdge(hostText, match.index, match[0].length)) continue;
    named.add(brand);
    signals.push({
      category: 'phishing',
      weight: WEIGHTS.brand.named,
      reason: `${brand.name}의 공식 도메인이 아닌데 호스트에 ${withJosa(`'${match[0]}'`, '이/가')} 들어 있음`,
    });
    if (PHISHY_HOST.test(hostText.replace(match[0], ' '))) {
      signals.push({
        category: 'phishing',
        weight: WEIGHTS.brand.phishyHost,
        reason: '브랜드명과 로그인·인증·고객센터 같은 단어를 섞은 호스트',
      });
    }
  }
  if (named.size === 0) {
    const lookalike = lookalikeOf(url);
    if (lookalike) signals.push(lookalike);
  }
  if (signals.length === 0) {
    for (const match of url.decodedText.matchAll(KOREAN_BRAND_TOKENS)) {
      const brand = brandOfToken.get(match[0]);
      if (!brand || !notOwner(brand)) continue;
      signals.push({
        category: 'phishing',
        weight: WEIGHTS.brand.pathMention,
        reason: `${withJosa(brand.name, '와/과')} 무관한 사이트 경로에 ${withJosa(`'${match[0]}'`, '이/가')} 언급됨`,
      });
      break;
    }
  }
  return signals.sort((a, b) => b.weight - a.weight).slice(0, 3);
}

/**
 * A brand glued to words still starts or ends a word (`naverlogin`, `my-kakao`); buried inside
 * one on both sides it is another word (`hicloudcam` is not iCloud).
 */
function touchesWordEdge(text: string, start: number, length: number): boolean {
  const letter = (char: string | undefined) => char !== undefined && /[a-z]/.test(char);
  return !letter(text[start - 1]) || !letter(text[start + length]);
}

/** Homoglyph spellings (Cyrillic letters, digits for letters) and typos of a brand's domain. */
function lookalikeOf(url: CanonicalUrl): Signal | undefined {
  const unicodeLabel = url.hostUnicode.split('.').slice(0, -1).join('.');
  const skeletonText = skeleton(unicodeLabel);
  if (skeletonText !== unicodeLabel) {
    const hit = BRAND_LABELS.find(
      ({ brand, token }) =>
        skeletonText.includes(token) && !unicodeLabel.includes(token) && !ownedBy(url.host, url.domain, url.publicSuffix, brand.domains),
    );
    if (hit)
      return {
        category: 'phishing',
        weight: WEIGHTS.brand.homoglyph,
        reason: `${withJosa(`'${hit.token}'`, '와/과')} 비슷해 보이는 글자로 만든 위장 도메인`,
      };
  }
  const typo = typoOf(url.domainLabel);
  if (typo && !ownedBy(url.host, url.domain, url.publicSuffix, typo.brand.domains)) {
    return {
      category: 'phishing',
      weight: WEIGHTS.brand.typo,
      reason: `${typo.brand.name} 도메인('${typo.token}')과 철자가 한두 글자 다른 유사 도메인`,
    };
  }
  return undefined;
}

function typoOf(label: string): BrandToken | undefined {
  if (label.length < 5) return undefined;
  const plain = label.replace(/-/g, '');
  const counts = charCounts(plain);
  return BRAND_LABELS.find(({ token, counts: tokenCounts }) => {
    if (plain === token) return false;
    // Short names: only swapped letters (naevr), the same letters in another order.
    if (token.length < MIN_TYPO_LENGTH) {
      return (
        plain.length === token.length &&
        countsDistance(counts, tokenCounts ?? charCounts(token)) === 0 &&
        editDistance(plain, token, 1) <= 1
      );
    }
    // Two edits only for long names, and only with the first letter kept: readers anchor on the
    // start, and two substitutions there turn one ordinary word into another (postbank/tossbank).
    const max = token.length >= 8 && plain[0] === token[0] ? 2 : 1;
    return (
      Math.abs(plain.length - token.length) <= max &&
      countsDistance(counts, tokenCounts ?? charCounts(token)) <= 2 * max &&
      editDistance(plain, token, max) <= max
    );
  });
}

/** `gov`-named hosts outside the government's own suffixes imitate 정부24 and ministries. */
export function governmentSignals(url: CanonicalUrl): Signal[] {
  if (url.ipVersion || url.publicSuffix === 'go.kr' || url.domain === 'gov.kr' || url.domain === 'korea.kr') return [];
  // Other countries' governments live under their own suffixes (.gov, gov.uk, gob.mx, gouv.fr…).
  if (FOREIGN_GOVERNMENT.test(url.publicSuffix)) return [];
  const hostText = ownHostText(url);
  const korean = /(?<![a-z])(gov(?:24|-?kr)|go-?kr|minwon(?:24)?|jeongbu24)(?![a-z])/.exec(hostText);
  if (korean)
    return [
      {
        category: 'phishing',
        weight: WEIGHTS.government.koreanName,
        reason: `정부24·민원 서비스처럼 보이는 이름('${korean[1]}')이지만 정부 도메인(go.kr)이 아님`,
      },
    ];
  // A bare `gov` label is everywhere abroad (gov.aniview.com): a hint, never a verdict alone.
  const bare = /(?<![a-z])(gov\d*)(?![a-z])/.exec(hostText);
  return bare
    ? [
        {
          category: 'phishing',
          weight: WEIGHTS.government.bareGov,
          reason: `정부 기관처럼 보이는 이름('${bare[1]}')이지만 정부 도메인이 아님`,
        },
      ]
    : [];
}

const FOREIGN_GOVERNMENT = /(^|\.)(gov|mil|govt|gob|gouv|gv|go|government|admin|gub|guv)(\.|$)/;
