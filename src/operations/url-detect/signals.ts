import type { HarmCategory } from './lists/list-index.js';

/** One observation of a rule: which category it points to, how strongly, and why (Korean). */
export interface Signal {
  /** `generic` signals (cheap TLD, long host...) strengthen whichever category leads. */
  category: HarmCategory | 'generic';
  weight: number;
  reason: string;
  /** Names the category whatever else scores higher (an APK download is malware even when it wears a brand). */
  decisive?: boolean;
  /** Read from the address's shape (TLD, length, digits…), which the lexical model sees too: never its corroboration. */
  shape?: boolean;
}

export { CATEGORY_LABEL } from './category-labels.js';
