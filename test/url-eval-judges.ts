import { buildDetectionLists, type LoadedFeed } from '../src/operations/url-detect/lists/detection-lists.js';
import { createUrlEngine } from '../src/operations/url-detect/engine.js';
import { parseFeed, type FeedCategory, type FeedFormat } from '../src/operations/url-detect/lists/feeds.js';

/** A feed as the evaluation's local server offers it. */
export interface FeedOnServer {
  name: string;
  category: FeedCategory;
  format: FeedFormat;
  path: string;
}

export interface Verdict {
  malicious: boolean;
  /** What decided (`list`, `rules`, `allowlist`…), as the API's `source`. */
  source: string;
}

export type Judge = (url: string) => Promise<Verdict>;

/**
 * The fast mode of the forward evaluation (tuning only): the same feed bodies parsed and
 * assembled in this process, judged by the rules and models without the door or the LLM.
 * Its figures can differ from the door's (no stored-feed round trip, no saved model): report the door's.
 */
export async function judgeInProcess(bodies: ReadonlyMap<string, Buffer>, feeds: readonly FeedOnServer[]): Promise<Judge> {
  const loaded: LoadedFeed[] = feeds.map((feed) => {
    const parsed = parseFeed(bodies.get(feed.path) ?? Buffer.alloc(0), feed.format);
    return { name: feed.name, category: feed.category, entries: parsed.entries, exceptions: parsed.exceptions };
  });
  const engine = createUrlEngine(await buildDetectionLists(loaded));
  return async (url) => {
    const verdict = engine.classifyRules(url);
    return { malicious: verdict.isMalicious, source: verdict.source };
  };
}
