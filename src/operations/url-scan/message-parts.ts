/** Fields of a chat message (Slack attachments, blocks and unfurls; Discord embeds) that can carry a link a person sees. */
const LINK_FIELDS = new Set([
  'text',
  'content',
  'url',
  'title',
  'title_link',
  'from_url',
  'original_url',
  'fallback',
  'pretext',
  'description',
  'value',
  'name',
  'image_url',
  'thumb_url',
]);
/** Fields of a picture: a URL of an image shown, not a link anyone follows. */
const IMAGE_FIELDS = new Set(['image_url', 'thumb_url']);
const MAX_DEPTH = 8;
const MAX_PARTS = 500;

/**
 * The texts of a chat message as the platforms send it (a Slack `message` event or a Discord
 * message with `embeds`), for `extractUrls`: every string under a field that can hold a visible
 * link, depth and count bounded so a hostile payload cannot make it walk forever.
 */
export function messageParts(message: unknown, options: { images?: boolean } = {}): string[] {
  const parts: string[] = [];
  const images = options.images ?? true;
  const walk = (value: unknown, depth: number) => {
    if (depth > MAX_DEPTH || parts.length >= MAX_PARTS || value === null || typeof value !== 'object') return;
    for (const [key, field] of Object.entries(value)) {
      if (parts.length >= MAX_PARTS) return;
      if (typeof field === 'string') {
        if (LINK_FIELDS.has(key) && (images || !IMAGE_FIELDS.has(key))) parts.push(field);
      } else walk(field, depth + 1);
    }
  };
  walk(message, 0);
  return parts;
}
