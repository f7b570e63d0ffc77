import type { Logger } from '../../logger.js';
import { canonicalizeUrl, type CanonicalUrl } from './canonicalize.js';
import type { UrlSafetyChecker, UrlVerdict } from './checker.js';
import type { DomainSet } from './lists/detection-lists.js';
import { campaignDomain } from './lists/campaigns.js';
import { familySignals, type DomainFamilies } from './model/domain-families.js';
import { isFirstParty, isSharedPlatformHost, SHARED_HOSTING } from './rules/domains.js';
import { isWholeHostExpression, lookupExpressions } from './lists/expressions.js';
import { HARM_CATEGORIES, ListIndex, type HarmCategory, type ListHit } from './lists/list-index.js';
import { brandSignals, governmentSignals, vocabularySignals } from './rules/words.js';
import { structureSignals } from './rules/structure.js';
import { lookalikeSignals, smsSenderSignals } from './rules/lookalike.js';
import { randomLabelSignals } from './rules/random-labels.js';
import { WEIGHTS } from './rules/tables.js';
import type { DetectionLists } from './lists/detection-lists.js';
import type { LexicalModel } from './model/lexical-model.js';
import { modelSignals } from './model/model-signals.js';
import { smishingSignals } from './model/smishing-model.js';
import type { SecondOpinionJudge } from './second-opinion.js';
import { describeChain, type ShortLinkExpander } from './expansion/short-links.js';
import { learnedShortenerOf, learnedShortenerSignals, type LearnedShorteners } from './expansion/learned-shorteners.js';
import { CATEGORY_LABEL, type Signal } from './signals.js';
import { boundedCache } from '../../bounded-cache.js';

/** At or above: harmful (data/weights.json `verdict`). */
export const HARMFUL_SCORE = WEIGHTS.verdict.harmful;
/** From here up to HARMFUL_SCORE the rules are unsure: the LLM, when configured, decides. */
export const UNCERTAIN_SCORE = WEIGHTS.verdict.uncertain;

export interface Classification extends UrlVerdict {
  /** Canonical URL that was judged. */
  url: string;
  /** What decided: the allowlist, a list, the lexical rules, or the LLM second opinion. */
  source: 'allowlist' | 'list' | 'rules' | 'llm';
  score: number;
  signals: Signal[];
}

export interface EngineOptions {
  index?: ListIndex;
  /** The lexical model trained on the loaded feeds; without it only the hand-written rules score. */
  model?: LexicalModel | undefined;
  /** Registrable domains of the top-sites feeds: the address's shape alone does not condemn them. */
  popular?: DomainSet | undefined;
  /** Name families of the listed domains: a listed site's next domain (`name13.net` after `name12.com`). */
  families?: DomainFamilies | undefined;
  /** Korean smishing's host model, trained on the Korean feeds. */
  smishing?: LexicalModel | undefined;
  /** Shorteners learned from the feeds' reported links. */
  shorteners?: LearnedShorteners | undefined;
  judge?: SecondOpinionJudge | undefined;
  /** Follows public shorteners' redirects (`URL_EXPAND`); without it a short link is judged alone. */
  expander?: ShortLinkExpander | undefined;
  logger?: Logger;
  cacheSize?: number;
}

/**
 * The harmful-URL engine: canonicalize → first-party allowlist → lists → lexical score →
 * LLM second opinion for the uncertain middle. Works with no network and no LLM; verdicts
 * are cached per canonical URL until the lists change.
 */
export function createUrlEngine(options: EngineOptions = {}) {
  let index = options.index ?? ListIndex.empty();
  let model = options.model;
  let popular = options.popular;
  let families = options.families;
  let smishing = options.smishing;
  let shorteners = options.shorteners;
  let listVersion = 0;
  const cache = boundedCache<string, Classification>(options.cacheSize ?? 50_000);

  /** The rules' verdict, synchronous and without the LLM. */
  function classifyRules(url: CanonicalUrl): Classification {
    const firstParty = isFirstParty(url.host, url.domain, url.publicSuffix);
    // A whole-domain entry never overrides the allowlist; an entry naming a page does.
    const hit = index.lookup(lookupExpressions(url)).find((h) => !firstParty || !isWholeHostExpression(h.expression));
    if (hit) return listVerdict(url.href, hit);
    const campaign = firstParty ? undefined : campaignHit(url);
    if (campaign) return campaignVerdict(url, campaign);
    if (firstParty) {
      return {
        url: url.href,
        isMalicious: false,
        category: 'clean',
        reason: `잘 알려진 공식 서비스(${url.domain})의 주소입니다.`,
        source: 'allowlist',
        score: 0,
        signals: [],
      };
    }
    const ruleSignals = [
      ...vocabularySignals(url),
      ...brandSignals(url),
      ...lookalikeSignals(url),
      ...smsSenderSignals(url),
      ...randomLabelSignals(url),
      ...governmentSignals(url),
      ...structureSignals(url),
      ...familySignals(url, families),
      ...learnedShortenerSignals(url, shorteners),
    ];
    const learned = [...(model ? modelSignals(url, model, ruleSignals) : []), ...smishingSignals(url, smishing, shorteners)];
    const verdict = scoreVerdict(url.href, [...ruleSignals, ...learned]);
    if (verdict.isMalicious && isPopular(url) && !verdict.signals.some((signal) => signal.decisive)) {
      return {
        ...verdict,
        isMalicious: false,
        category: 'clean',
        reason: `널리 쓰이는 도메인(${url.domain}, 상위 사이트 목록)이라 주소 모양만으로는 유해하다고 판단하지 않았습니다.`,
      };
    }
    return verdict;
  }

  /** A listed host's sibling on the same throw-away registered domain (campaigns.ts); never a top-sites domain. */
  function campaignHit(url: CanonicalUrl): ListHit | undefined {
    if (url.ipVersion || !url.domain || popular?.has(url.domain)) return undefined;
    const domain = campaignDomain(url.host);
    return domain ? index.lookup([`~${domain}/`])[0] : undefined;
  }

  /** A registrable domain of the top-sites feeds, not a platform where anyone publishes. */
  function isPopular(url: CanonicalUrl): boolean {
    if (!popular || !url.domain || SHARED_HOSTING.has(url.domain) || isSharedPlatformHost(url.host)) return false;
    return popular.has(url.domain);
  }

  /**
   * A short link judged by where it leads: the link's own verdict when a list names it, else
   * the gravest verdict of its hops and target, the chain named in the reason. When the
   * target cannot be told the link's own signals stand, and the verdict says so (not cached).
   */
  async function classifyShortLink(url: CanonicalUrl, expander: ShortLinkExpander): Promise<{ verdict: Classification; keep: boolean }> {
    const own = classifyRules(url);
    if (own.source === 'list') return { verdict: own, keep: true };
    const expansion = await expander.expand(url);
    const chain = describeChain(expansion.chain);
    const harmful = expansion.chain
      .slice(1)
      .map((href) => classifyRules(canonicalizeUrl(href)))
      .filter((verdict) => verdict.isMalicious)
      .sort((a, b) => b.score - a.score)[0];
    if (harmful) {
      const reason = `단축 URL이 유해한 주소로 이어집니다(${chain}): ${harmful.reason}`;
      return { verdict: { ...harmful, url: url.href, reason }, keep: true };
    }
    if (!expansion.complete) {
      const reason = `${own.reason} 단축 URL의 목적지는 확인하지 못했습니다: ${expansion.failure ?? '알 수 없는 오류'}.`;
      return { verdict: { ...own, reason }, keep: false };
    }
    if (own.isMalicious) return { verdict: own, keep: true };
    return { verdict: { ...own, reason: `단축 URL의 목적지(${chain})에서 알려진 유해 신호가 발견되지 않았습니다.` }, keep: true };
  }

  /** A link the expander follows: a shipped shortener's, or a learned one's (beyond its root). */
  function follows(url: CanonicalUrl, expander: ShortLinkExpander): boolean {
    return expander.follows(url) || (url.path.length > 1 && shorteners?.hosts.has(url.domain ?? '') === true);
  }

  async function classifyCanonical(url: CanonicalUrl): Promise<Classification> {
    const cached = cache.get(url.href);
    if (cached) return cached;
    if (options.expander && follows(url, options.expander)) {
      const { verdict, keep } = await classifyShortLink(url, options.expander);
      if (keep) cache.set(url.href, verdict);
      return verdict;
    }
    let verdict = classifyRules(url);
    if (options.judge && verdict.source === 'rules' && verdict.score >= UNCERTAIN_SCORE && verdict.score < HARMFUL_SCORE) {
      const leading = leadingCategory(verdict.signals);
      try {
        const opinion = await options.judge.judge({
          url: url.href,
          leadingCategory: leading,
          score: verdict.score,
          signals: verdict.signals,
        });
        verdict =
          opinion.category === 'clean'
            ? { ...verdict, source: 'llm', reason: `AI 검토 결과 유해하지 않은 것으로 보입니다: ${opinion.reason}` }
            : {
                ...verdict,
                source: 'llm',
                isMalicious: true,
                category: opinion.category,
                reason: `${CATEGORY_LABEL[opinion.category]} 위험이 있는 URL입니다(AI 검토): ${opinion.reason}`,
              };
      } catch (error) {
        // The rules' verdict stands; not cached, so the next call asks again.
        options.logger?.warn({ err: error instanceof Error ? error.message : String(error) }, 'url second opinion failed');
        return verdict;
      }
    }
    cache.set(url.href, verdict);
    return verdict;
  }

  return {
    /** Full classification of a raw URL; a URL that is not absolute http(s) is a 400. */
    classify(raw: string): Promise<Classification> {
      return classifyCanonical(canonicalizeUrl(raw));
    },

    /** The rules alone, synchronously (benchmarks, bots that must answer at once). */
    classifyRules(raw: string): Classification {
      const url = canonicalizeUrl(raw);
      return cache.get(url.href) ?? classifyRules(url);
    },

    /** List hits only: the cheap re-check of existing short links at redirect time. */
    listCheck(raw: string): UrlVerdict | undefined {
      if (index.size === 0) return undefined;
      const url = canonicalizeUrl(raw);
      const firstParty = isFirstParty(url.host, url.domain, url.publicSuffix);
      const hit = index.lookup(lookupExpressions(url)).find((h) => !firstParty || !isWholeHostExpression(h.expression));
      if (hit) return listVerdict(url.href, hit);
      const campaign = firstParty ? undefined : campaignHit(url);
      return campaign ? campaignVerdict(url, campaign) : undefined;
    },

    /** Swaps in new lists (after `lists:update`); cached verdicts are dropped. */
    setIndex(next: ListIndex): void {
      index = next;
      listVersion++;
      cache.clear();
    },

    /** Swaps in a freshly loaded index and the model trained with it, in one step. */
    setLists(next: DetectionLists): void {
      index = next.index;
      model = next.model;
      popular = next.popular;
      families = next.families;
      smishing = next.smishing;
      shorteners = next.shorteners;
      listVersion++;
      cache.clear();
    },

    get model(): LexicalModel | undefined {
      return model;
    },

    /** Korean smishing's host model, when trained. */
    get smishingModel(): LexicalModel | undefined {
      return smishing;
    },

    /** The shorteners learned at the last load (the shipped ones aside). */
    get learnedShorteners(): LearnedShorteners | undefined {
      return shorteners;
    },

    /**
     * The shortener serving a host (`www.` aside), shipped or learned from the feeds, or
     * undefined: what a caller (the message check) asks to know that a link hides its target.
     */
    shortenerOf(host: string): string | undefined {
      return learnedShortenerOf(host, shorteners);
    },

    /** Bumped on every list change, so callers holding verdicts know when to re-check. */
    get listVersion(): number {
      return listVersion;
    },

    get listSize(): number {
      return index.size;
    },

    /** The shortener's view (`UrlSafetyChecker`). */
    async check(raw: string): Promise<UrlVerdict> {
      const { isMalicious, category, reason } = await classifyCanonical(canonicalizeUrl(raw));
      return { isMalicious, category, reason };
    },
  } satisfies UrlSafetyChecker & Record<string, unknown>;
}

export type UrlEngine = ReturnType<typeof createUrlEngine>;

function sourceName(hit: ListHit): string {
  return hit.source === 'team' ? '서비스 자체 목록' : `공개 목록 '${hit.source}'`;
}

function listVerdict(href: string, hit: ListHit): Classification {
  const source = sourceName(hit);
  return {
    url: href,
    isMalicious: true,
    category: hit.category,
    reason: `${CATEGORY_LABEL[hit.category]} 주소로 ${source}에 등록되어 있습니다(${hit.expression}).`,
    source: 'list',
    score: 100,
    signals: [],
  };
}

function campaignVerdict(url: CanonicalUrl, hit: ListHit): Classification {
  const source = sourceName(hit);
  const domain = hit.expression.slice(1, -1);
  return {
    url: url.href,
    isMalicious: true,
    category: hit.category,
    reason: `같은 등록 도메인(${domain})의 다른 주소가 ${CATEGORY_LABEL[hit.category]} 주소로 ${source}에 등록되어 있습니다(하위 도메인을 바꿔 가며 보내는 캠페인).`,
    source: 'list',
    score: 100,
    signals: [],
  };
}

/** Per-category sums; generic signals strengthen whichever category leads. */
function scoreVerdict(href: string, signals: Signal[]): Classification {
  const category = leadingCategory(signals);
  const specific = signals.filter((s) => s.category === category);
  const generic = signals.filter((s) => s.category === 'generic');
  const score = sum(specific) + sum(generic);
  const strongest = [...specific, ...generic]
    .sort((a, b) => b.weight - a.weight)
    .slice(0, 3)
    .map((s) => s.reason);
  if (score >= HARMFUL_SCORE) {
    return {
      url: href,
      isMalicious: true,
      category,
      reason: `${CATEGORY_LABEL[category]} 위험이 있는 URL입니다: ${strongest.join(', ')}.`,
      source: 'rules',
      score,
      signals,
    };
  }
  const reason =
    score >= UNCERTAIN_SCORE
      ? `일부 의심 신호가 있으나 유해하다고 판단할 근거는 부족합니다: ${strongest.join(', ')}.`
      : strongest.length > 0 && score > 0
        ? `뚜렷한 유해 신호가 발견되지 않았습니다(참고: ${strongest[0]}).`
        : '알려진 유해 신호가 발견되지 않았습니다.';
  return { url: href, isMalicious: false, category: 'clean', reason, source: 'rules', score, signals };
}

function leadingCategory(signals: Signal[]): HarmCategory {
  const decisive = signals.find((s) => s.decisive && s.category !== 'generic');
  if (decisive && decisive.category !== 'generic') return decisive.category;
  let best: HarmCategory = 'phishing';
  let bestScore = 0;
  for (const category of HARM_CATEGORIES) {
    const total = sum(signals.filter((s) => s.category === category));
    if (total > bestScore) {
      best = category;
      bestScore = total;
    }
  }
  return best;
}

function sum(signals: Signal[]): number {
  return signals.reduce((total, s) => total + s.weight, 0);
}
