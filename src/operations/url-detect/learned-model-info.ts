import type { LearnedModelInfo } from '../../platform/learned-models.js';
import type { CompactFeed, DetectionLists } from './lists/detection-lists.js';
import type { LexicalModel } from './model/lexical-model.js';
import { KOREAN_FEED } from './model/smishing-model.js';
import type { UrlEngine } from './engine.js';

/**
 * The URL detector's learned models as the runtime's registry lists them
 * (src/platform/learned-models.ts): the global host model, Korean smishing's host model and the
 * shorteners learned from the reported links. Names are stable: monitoring may key on them.
 */
export function describeLearnedModels(engine: Pick<UrlEngine, 'model' | 'smishingModel' | 'learnedShorteners'>): LearnedModelInfo[] {
  const shorteners = engine.learnedShorteners;
  return [
    lexical('url-host-model', engine.model),
    lexical('url-smishing-model', engine.smishingModel),
    {
      name: 'url-shorteners',
      trained: shorteners !== undefined && shorteners.hosts.size > 0,
      examples: shorteners?.links ?? 0,
      trained_at: shorteners && shorteners.hosts.size > 0 ? shorteners.trainedAt : null,
    },
  ];
}

function lexical(name: string, model: LexicalModel | undefined): LearnedModelInfo {
  if (!model) return { name, trained: false, examples: 0, trained_at: null };
  const examples = Object.values(model.info.examples).reduce((total, n) => total + n, 0);
  return { name, trained: true, examples, trained_at: model.info.trainedAt ?? null };
}

/** Why a model the configuration asks for did not train (logged at each load), or undefined. */
export function untrainedNotice(feeds: readonly CompactFeed[], lists: DetectionLists): string | undefined {
  const harm = feeds.filter((feed) => feed.category !== 'clean');
  if (harm.length === 0) return undefined;
  const clean = feeds.some((feed) => feed.category === 'clean' && feed.entries > 0);
  const missing = [
    ...(lists.model ? [] : ['url-host-model']),
    ...(!lists.smishing && harm.some((feed) => KOREAN_FEED.test(feed.name)) ? ['url-smishing-model'] : []),
  ];
  if (missing.length === 0) return undefined;
  const why = clean
    ? 'too few examples in the loaded feeds'
    : 'no clean (top-sites) feed is loaded yet: the clean reference has not been downloaded';
  return `url lists: ${missing.join(', ')} not trained (${why}); the rules and lists still judge`;
}
