/**
 * The ids of the eight APIs, by which the platform subscribes and charges. Everything else of
 * the catalogue is in the operations' modules (src/operations/catalog.ts): the platform cannot
 * import them (they import it), so src/operations/modules.ts checks at compile time that these
 * ids and the modules' are the same.
 */
export const API_IDS = [
  'chatbot-rag',
  'tone-transformation',
  'harmful-url-detection',
  'text-generation',
  'ocr-idcard',
  'translation',
  'delivery-tracking',
  'url-shortener',
] as const;

export type ApiId = (typeof API_IDS)[number];
