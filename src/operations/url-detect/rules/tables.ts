import { z } from 'zod';
import brandsFile from '../data/brands.json' with { type: 'json' };
import confusablesFile from '../data/confusables.json' with { type: 'json' };
import domainsFile from '../data/domains.json' with { type: 'json' };
import vocabularyFile from '../data/vocabulary.json' with { type: 'json' };
import weightsFile from '../data/weights.json' with { type: 'json' };
import letterPairsFile from '../data/letter-pairs.json' with { type: 'json' };
import { HARM_CATEGORIES } from '../lists/list-index.js';

/**
 * The rules' tables (words, brands, domains, weights) are data in `../data/*.json`, validated
 * here when the module loads: a malformed table stops the start with the file and the entry
 * named, rather than a rule that silently never fires.
 */

const lower = z
  .string()
  .min(1)
  .regex(/^[^A-Z]*$/, 'lower-case');
/** A registrable domain, a host or a brand's own top-level domain (`naver`). */
const domainName = z.string().regex(/^[a-z0-9-]+(\.[a-z0-9-]+)*$/, 'a lower-case domain name');
/** A regular-expression fragment that compiles. */
const pattern = lower.refine((text) => {
  try {
    new RegExp(text);
    return true;
  } catch {
    return false;
  }
}, 'a valid regular-expression fragment');

/** What Korean smishing imitates: the look-alike rule (rules/lookalike.ts) watches these brands' names. */
export const SMISHING_SECTORS = ['courier', 'bank', 'card', 'exchange', 'telecom', 'government', 'portal', 'shop'] as const;

const brand = z.object({
  /** Korean display name used in reasons. */
  name: z.string().min(1),
  /** A sector Korean smishing imitates: its names are watched for look-alike registered domains. */
  sector: z.enum(SMISHING_SECTORS).optional(),
  /** Romanized tokens as they appear in hosts (lower-case, matched within host labels). */
  tokens: z.array(z.string().regex(/^[a-z0-9]+$/, 'lower-case letters and digits')),
  /** Korean spellings, matched in IDN hosts and decoded paths. */
  korean: z.array(z.string().min(2)),
  /**
   * Name beginnings that look-alike domains start with but that are too common to match anywhere
   * in a host (`lotte` in `lottegskkm`, never in `charlotte`): read only by the look-alike rule.
   */
  stems: z.array(z.string().regex(/^[a-z]{5,}$/, 'five or more lower-case letters')).optional(),
  /** Registrable domains the brand owns (a bare name is the brand's own top-level domain, `.naver`). */
  domains: z.array(domainName),
});
export type Brand = z.infer<typeof brand>;

const vocabulary = z.object({
  category: z.enum(HARM_CATEGORIES),
  /** Korean noun for reasons: "도박 용어". */
  label: z.string().min(1),
  /** Matched inside host labels (domains glue words together: `totosite79`). */
  host: z.array(pattern).min(1),
  /** Matched only between non-letters (`bet` but not `alphabet`). */
  bounded: z.array(pattern),
  /** Matched in IDN hosts and in the decoded path and query. */
  korean: z.array(pattern),
  /** Innocent alone, telling when two are glued in one host (`hotbabes`): counted only in pairs. */
  weakHost: z.array(pattern),
  /** Korean words with no innocent reading (먹튀, 조건만남, 카드깡): heavier in paths. */
  koreanStrong: z.array(pattern),
  /** Weight of the first host hit, then of each further distinct hit. */
  hostWeight: z.number(),
  extraWeight: z.number(),
  /** Weight of each path/query hit (capped at three); strong Korean words weigh `strongPathWeight`. */
  pathWeight: z.number(),
  strongPathWeight: z.number(),
  /** Weight of a bounded (weak) host word when no strong one is there. */
  weakWeight: z.number(),
});
export type Vocabulary = z.infer<typeof vocabulary>;

const domains = z.object({
  /** Registrable domains of well-known services: clean unless a list names the page (brand domains are added). */
  firstParty: z.array(domainName),
  /** Suffixes whose every domain belongs to the state. */
  firstPartySuffixes: z.array(domainName),
  /** Hosts of allowlisted domains where anyone can publish: judged like any other host. */
  untrustedHosts: z.array(domainName),
  /** Shared hosting and free sub-domain services: the sub-domain is somebody else's site. */
  sharedHosting: z.array(domainName),
  /** Free Korean sub-domain services, singled out in reasons. */
  koreanFreeSubdomains: z.array(domainName),
  /** CDN, DNS and load-balancer zones: their host names repeat customers' names. */
  infrastructure: z.array(domainName),
  /** Cheap or heavily abused top-level domains (Spamhaus / Interisle abuse rankings). */
  cheapTlds: z.array(z.string().regex(/^[a-z]+$/)),
  /** Korean second-level suffixes only public bodies, schools, institutes and non-profits can register. */
  koreanRestrictedSuffixes: z.array(domainName),
  /** Korean regional suffixes (`<name>.seoul.kr`): local governments and their bodies. */
  koreanRegions: z.array(z.string().regex(/^[a-z]+$/)),
  /** Sub-domain labels of ordinary service hosts (`cdn`, `img`, `api`…): never read as a campaign's random label. */
  serviceLabels: z.array(z.string().regex(/^[a-z0-9-]+$/)),
  /** Romanized words of bulk text sending (`sms`, `munja` 문자, `balsong` 발송) that smishing hosts wear (rules/lookalike.ts). */
  smsSenderWords: z.array(z.string().regex(/^[a-z]{3,}$/)).min(1),
});

const points = z.number().min(0).max(100);
const probability = z.number().min(0).max(1);
const weights = z.object({
  verdict: z.object({ harmful: points, uncertain: points }),
  vocabulary: z.object({ paired: points, singlePaired: points }),
  brand: z.object({
    named: points,
    phishyHost: points,
    pathMention: points,
    homoglyph: points,
    typo: points,
    shortTokenLength: z.number().int().min(1),
    minTypoLength: z.number().int().min(1),
  }),
  lookalike: z.object({
    glued: points,
    misspelt: points,
    smsSender: points,
    minStem: z.number().int().min(3),
    minTypoStem: z.number().int().min(4),
    maxRest: z.number().int().min(1),
  }),
  randomLabels: z.object({ pronounceable: z.number().max(0), bothRandom: points, numbered: points }),
  government: z.object({ koreanName: points, bareGov: points }),
  structure: z.record(z.string(), points),
  phishingKit: z.record(z.string(), points),
  globalModel: z.object({ alone: points, notAlone: points, suspicious: points, suspiciousShared: points }),
  smishingModel: z.object({
    minHosts: z.number().int().min(1),
    firm: probability,
    leaning: probability,
    hint: probability,
    firmWeight: points,
    leaningWeight: points,
    hintWeight: points,
  }),
  families: z.object({ institutional: points, rotates: points, single: points }),
  /** Hosts learned as shorteners from the harm feeds (expansion/learned-shorteners.ts). */
  learnedShorteners: z.object({
    minLinks: z.number().int().min(2),
    minCode: z.number().int().min(1),
    maxCode: z.number().int().min(2),
  }),
});

const STRUCTURE_KEYS = [
  'privateAddress',
  'ipHost',
  'oddPort',
  'apk',
  'executable',
  'archive',
  'userinfo',
  'internalHost',
  'cheapTld',
  'koreanFreeSubdomain',
  'sharedHosting',
  'shortener',
  'manySubdomains',
  'domainInSubdomain',
  'longHost',
  'manyHyphens',
  'randomName',
  'digitsAtEdge',
] as const;
const KIT_KEYS = ['wordpressFolder', 'wellKnownFolder', 'formPage', 'emailInPath', 'randomFolder'] as const;

/** Parses one table, naming the file and the path of the first bad entry. */
export function loadTable<T extends z.ZodType>(file: string, schema: T, data: unknown): z.output<T> {
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`url-detect/data/${file}: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

function keyed<const K extends readonly string[]>(file: string, table: Record<string, number>, keys: K): Record<K[number], number> {
  const missing = keys.filter((key) => table[key] === undefined);
  if (missing.length > 0) throw new Error(`url-detect/data/${file}: missing ${missing.join(', ')}`);
  return table as Record<K[number], number>;
}

/** The schemas of the tables, by file (tests feed them broken tables). */
export const TABLE_SCHEMAS = {
  'brands.json': z.object({ brands: z.array(brand).min(1) }),
  'vocabulary.json': z.object({ vocabularies: z.array(vocabulary).min(1) }),
  'domains.json': domains,
  'weights.json': weights,
} as const;

export const BRANDS: readonly Brand[] = loadTable('brands.json', TABLE_SCHEMAS['brands.json'], brandsFile).brands;

export const VOCABULARIES: readonly Vocabulary[] = loadTable(
  'vocabulary.json',
  TABLE_SCHEMAS['vocabulary.json'],
  vocabularyFile,
).vocabularies;

export const DOMAINS = loadTable('domains.json', TABLE_SCHEMAS['domains.json'], domainsFile);

/** Characters that look like Latin letters (Cyrillic, Greek, full-width, digits). */
export const CONFUSABLES: Readonly<Record<string, string>> = loadTable(
  'confusables.json',
  z.object({ confusables: z.record(z.string().length(1), z.string().regex(/^[a-z]$/)) }),
  confusablesFile,
).confusables;

const weightTable = loadTable('weights.json', TABLE_SCHEMAS['weights.json'], weightsFile);
export const WEIGHTS = {
  ...weightTable,
  structure: keyed('weights.json structure', weightTable.structure, STRUCTURE_KEYS),
  phishingKit: keyed('weights.json phishingKit', weightTable.phishingKit, KIT_KEYS),
};

/** How letters follow one another in ordinary sites' names (learned by scripts/learn-letter-pairs.ts): ln P(next | letter). */
export const LETTER_PAIRS: readonly (readonly number[])[] = loadTable(
  'letter-pairs.json',
  z.object({ alphabet: z.literal('abcdefghijklmnopqrstuvwxyz^$'), logp: z.array(z.array(z.number().max(0)).length(28)).length(28) }),
  letterPairsFile,
).logp;
