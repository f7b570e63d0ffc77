import type { OcrText } from '../../providers/ocr/tesseract-pool.js';

/** The last word of a line is a link: a scheme, or a dot after a Latin letter or digit, then letters or the line's end (`gourl.kr/ab`, `tistory.`). */
const LINK_AT_END = /(?::\/\/|[A-Za-z0-9-]\.(?:[A-Za-z]|$))\S*$/;
/** A line that starts with what a link may contain (no space, no Hangul). */
const LINK_CHARS_AT_START = /^[A-Za-z0-9\-._~/?#@!$&'()*+,;=%:]/;

/**
 * The text of a screenshot read by OCR, its lines in order, with a link that a phone wrapped at
 * the bubble's edge put back together: a line that ends in a link, reaches as far right as the
 * widest lines (within about a character: the phone broke it because it was full) and is
 * followed by a line starting with a link's characters continues on it without a break.
 */
export function screenText(read: OcrText): string {
  const lines = read.lines.filter((line) => line.text.trim().length > 0);
  if (lines.length === 0) return plainLatin(read.text);
  const right = Math.max(...lines.map((line) => line.box.left + line.box.width));
  let text = lines[0]!.text.trim();
  for (let index = 1; index < lines.length; index++) {
    const before = lines[index - 1]!;
    const line = lines[index]!.text.trim();
    const full = before.box.left + before.box.width >= right - before.box.height;
    const wrapped = full && LINK_AT_END.test(before.text.trim()) && LINK_CHARS_AT_START.test(line);
    text += (wrapped ? '' : '\n') + line;
  }
  return plainLatin(text);
}

/** `fétg` → `fetg`: the Latin model sometimes adds an accent; Korean messages' links have none. */
function plainLatin(text: string): string {
  return text
    .normalize('NFD')
    .replace(/(?<=[A-Za-z])\p{Mn}+/gu, '')
    .normalize('NFC');
}
