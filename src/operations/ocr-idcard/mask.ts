import { maskLicenceNumber, maskResidentNumber } from './numbers.js';
import type { DocumentInfo } from './parse.js';

/** A digit as OCR may have printed it. */
const D = '[0-9OoDQlIi|!/\\]\\[BSsZzGbgqTA]';
const RESIDENT_LIKE = new RegExp(`((?<!\\d)\\d${D}{5}\\s*[-–—~_.]?\\s*${D})((?:\\s?${D}){6,7})`, 'g');
const LICENCE_LIKE = new RegExp(`((?<!\\d)\\d{2}\\s*[-–—~_.]\\s*\\d{2}\\s*[-–—~_.]\\s*)(${D}{5,7})(\\s*[-–—~_.]\\s*${D}{2}(?!\\d))`, 'g');

/**
 * `mask: true`: the resident number keeps its birth date and sex digit (`900101-1******`),
 * the licence number its region and year (`11-19-******-78`), in `info` and in the text.
 * The text is masked by pattern as well as by value, so a misread copy is hidden too.
 */
export function maskDocument(info: DocumentInfo, rawText: string): { info: DocumentInfo; rawText: string } {
  const masked: DocumentInfo = { ...info };
  let text = rawText;
  if (info.type !== '사업자등록증' && info.id_number) {
    masked.id_number = maskResidentNumber(info.id_number);
    text = text.split(info.id_number).join(masked.id_number);
  }
  if (info.license_number) {
    masked.license_number = maskLicenceNumber(info.license_number);
    text = text.split(info.license_number).join(masked.license_number);
  }
  text = text.replace(LICENCE_LIKE, (_all, head: string, serial: string, tail: string) => `${head}${'*'.repeat(serial.length)}${tail}`);
  // On a certificate too: a sole proprietor's copy may print the owner's resident number.
  text = text.replace(RESIDENT_LIKE, (_all, head: string, tail: string) => `${head}${tail.replace(/\S/g, '*')}`);
  return { info: masked, rawText: text };
}
