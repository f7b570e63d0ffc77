import type { Box, OcrLine } from '../../providers/ocr/read-page.js';
import { paintBoxes } from './preprocess.js';

/** A number's part to cover, as a regular expression whose group 1 is that part. */
const COVERED_PARTS = [
  // Resident numbers: the seven digits after the birth date (the text keeps the sex digit; the image
  // need not). No look-behind: a speck read as a digit before the date must not hide the number.
  /\d{6}\s*[-–—~_.]?\s*(\d{7})(?!\d)/g,
  // Driver's licences: the serial between region/year and the check digits.
  /(?<!\d)\d{2}\s*[-–—]\s*\d{2}\s*[-–—]\s*(\d{6})\s*[-–—]\s*\d{2}(?!\d)/g,
  // Old licences whose number starts with the region's name (서울 05-123456-78).
  /[가-힣]{2}\s*\d{2}\s*[-–—]\s*(\d{6})\s*[-–—]\s*\d{2}(?!\d)/g,
];

/** A little more than a digit's share of a word on the left, since hyphens are narrower than digits. */
const LEFT_SLACK_CHARS = 0.6;

/**
 * `mask: true`: the page as read, with every resident number's back seven digits and every
 * licence serial painted over, where the OCR placed them. Positions come from the words of the
 * first reading (the image they were read on); a number shared between words is covered in each.
 * Undefined when no such number stands on the page, when a number in `required` (the back
 * digits and serials the reader returned) was not found where it stands, or when the page was
 * read rotated: an image is never sent with a number uncovered.
 */
export async function maskedPagePng(png: Buffer, lines: OcrLine[], rotateRadians: number, required: string[]): Promise<Buffer | undefined> {
  if (Math.abs(rotateRadians) > 0.002) return undefined;
  const parts = lines.flatMap(coveredParts);
  // Every number the reader returned must be found where it stands, or no image goes out.
  if (parts.length === 0 || !required.every((digits) => parts.some((part) => part.digits === digits))) return undefined;
  return paintBoxes(
    png,
    parts.map((part) => part.box),
  );
}

/** The boxes of one line's covered parts (each word's share of the part, by its characters) and the digits they hide. */
export function coveredParts(line: OcrLine): Array<{ box: Box; digits: string }> {
  const words = (line.words ?? []).filter((word) => word.box && word.text.length > 0);
  if (words.length === 0) return [];
  const spans: Array<{ start: number; end: number; box: Box }> = [];
  let joined = '';
  for (const word of words) {
    if (joined) joined += ' ';
    spans.push({ start: joined.length, end: joined.length + word.text.length, box: word.box! });
    joined += word.text;
  }
  const out: Array<{ box: Box; digits: string }> = [];
  for (const pattern of COVERED_PARTS) {
    for (const match of joined.matchAll(pattern)) {
      const start = match.index + match[0].lastIndexOf(match[1]!);
      const end = start + match[1]!.length;
      for (const span of spans) {
        const from = Math.max(start, span.start);
        const to = Math.min(end, span.end);
        if (from >= to) continue;
        const box = shareOf(span, from - span.start - (from === start ? LEFT_SLACK_CHARS : 0), to - span.start);
        out.push({ box, digits: match[1]! });
      }
    }
  }
  return out;
}

/** The part of a word's box holding characters `from`–`to` of its text, a little taller than the word. */
function shareOf(span: { start: number; end: number; box: Box }, from: number, to: number): Box {
  const length = span.end - span.start;
  const { left, top, width, height } = span.box;
  const x0 = left + (width * Math.max(0, from)) / length;
  const x1 = left + (width * to) / length;
  const pad = Math.ceil(height * 0.2);
  return { left: Math.floor(x0), top: top - pad, width: Math.ceil(x1 - x0) + 2, height: height + 2 * pad };
}
