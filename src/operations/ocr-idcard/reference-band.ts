import type { Box, OcrEngine, OcrLine } from '../../providers/ocr/tesseract-pool.js';
import { cleanAddress, looksLikeAddress } from './address.js';
import { findDate } from './numbers.js';
import { cropPng, pageBand, pngSize, readBand } from './preprocess.js';
import { SIDO_NAMES, SIGUNGU_NAMES } from './regions.js';
import { compact, respaceHangul, trimJunk } from './text.js';

/** A road-name address as cleaned, with nothing after its building number or unit. */
const ROAD_WITHOUT_REFERENCE = /[가-힣\d](?:로|길)\s*\d+(?:-\d+)?(?:,\s*(?:\d+동\s*)?\d+호)?$/;
/** The reference item (참고항목): the 법정동 or the building, in parentheses. */
const REFERENCE = /^[(（]?([가-힣][가-힣\d]{0,9}(?:동|\d가|리|읍|면|로|길|아파트|빌딩|타운))(?:[)）][^가-힣]*|[)）]?)$/;

/**
 * Scales the band is read at, in turn, until one reads a reference: the reference line is
 * printed small, and read as it stands it often comes back split or half specks ("(송도동" /
 * "동)") where enlarged it reads whole. Measured on the independent generator's tune part.
 */
const SCALES = [1, 1.5, 2];

/** Specks of guilloche read as a word come with a low confidence; a printed reference did not. */
const MIN_CONFIDENCE = 60;

/**
 * The band under a card's address line when the engine read nothing there but specks: from
 * the address line (with `road`, the one holding the road and building number) to the next
 * line with words or a date, when it is tall enough to hold a line and not a whole block.
 * Undefined when the address is not found or the band is thin.
 */
export function referenceBand(lines: OcrLine[], width: number, height: number, road = true): Box | undefined {
  const at = lines.findIndex((line) => looksLikeAddress(line.text) && (!road || /(로|길)\s*\d/.test(line.text)));
  const address = lines[at];
  if (!address) return undefined;
  const bottom = address.box.top + address.box.height;
  const below = lines
    .slice(at + 1)
    .find(
      (line) =>
        line.box.top >= bottom - address.box.height * 0.2 && (findDate(line.text) || /\d{4}|[가-힣]{2}/.test(compact(trimJunk(line.text)))),
    );
  if (!below) return undefined;
  const gap = below.box.top - bottom;
  // Room for one line, not for a block of the card's print.
  if (gap < address.box.height * 0.9 || gap > address.box.height * 4.5) return undefined;
  // A missing road line may reach further than the 시·도 and 시·군·구 above it.
  const reach = road ? address.box.width + address.box.height : address.box.width * 1.6;
  return pageBand(
    {
      left: address.box.left - address.box.height / 2,
      right: address.box.left + reach,
      // The line's box often stops short of the descenders: the band starts a little above its bottom.
      top: bottom - address.box.height * 0.15,
      bottom: below.box.top - 1,
    },
    width,
    height,
  );
}

/**
 * A card's address completed from the band under its first line, when the page layout
 * dropped a line there under the guilloche: the reference in parentheses ("(구월동)") after
 * a road-name address, or the road itself after an address that stops at its 시·군·구.
 * The address comes back unchanged when it ends otherwise or nothing fitting is read there.
 */
export async function withAddressBand(
  engine: OcrEngine,
  png: Buffer,
  lines: OcrLine[],
  address: string,
  signal?: AbortSignal,
): Promise<string> {
  const road = ROAD_WITHOUT_REFERENCE.test(address);
  const last = address.split(' ').pop() ?? '';
  if (!road && !(SIGUNGU_NAMES.includes(last) || SIDO_NAMES.includes(last))) return address;
  const size = pngSize(png);
  const band = referenceBand(lines, size.width, size.height, road);
  if (!band) return address;
  for (const scale of SCALES) {
    const read = await readBand(engine, await cropPng(png, band, scale), signal);
    for (const line of read.lines) {
      if (line.confidence < MIN_CONFIDENCE) continue;
      const text = compact(respaceHangul(trimJunk(line.text)));
      const match = REFERENCE.exec(text);
      if (road && match) return `${address} (${match[1]})`;
      if (!road && /[가-힣]{2}/.test(text)) return cleanAddress([address, trimJunk(line.text)]);
    }
  }
  return address;
}
