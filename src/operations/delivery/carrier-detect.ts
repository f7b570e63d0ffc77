/**
 * Carrier auto-detection from the waybill number's format, as Korean tracking apps do it.
 * The format narrows the carriers; the candidates are then asked of the upstream in order of
 * market share (see `trackDetected`). Rules, from the carriers' published numbering:
 * - UPU S10 (`EE123456789KR`: 2 letters, 8 digits, a check digit, 2 letters) with a valid
 *   check digit: Korea Post EMS / international mail;
 * - 13 digits: Korea Post domestic parcels;
 * - 12 digits whose last digit is the first eleven mod 7: CJ대한통운, 롯데택배, 한진택배;
 * - 10 digits with the same mod-7 check: CJ대한통운, 한진택배;
 * - 11 digits with the mod-7 check: 로젠택배.
 * Anything else is not guessed: the caller is asked for the carrier.
 */

/** Candidates asked at most for one number (each is one upstream lookup under the rate limit). */
export const MAX_DETECT_CANDIDATES = 3;

/** The last digit is the number formed by the others, mod 7 (CJ, Lotte, Hanjin, Logen). */
function mod7Valid(digits: string): boolean {
  const body = BigInt(digits.slice(0, -1));
  return Number(body % 7n) === Number(digits.at(-1));
}

/** UPU S10 check digit: weights 8 6 4 2 3 5 9 7, 11 − sum mod 11 (10 → 0, 11 → 5). */
function s10Valid(id: string): boolean {
  const match = /^[A-Z]{2}(\d{8})(\d)[A-Z]{2}$/.exec(id);
  if (!match) return false;
  const weights = [8, 6, 4, 2, 3, 5, 9, 7];
  const sum = [...match[1]!].reduce((total, digit, index) => total + Number(digit) * weights[index]!, 0);
  const check = 11 - (sum % 11);
  return (check === 10 ? 0 : check === 11 ? 5 : check) === Number(match[2]);
}

/** Carrier ids the number's format points to, most likely first (empty: no guess). */
export function detectCarriers(raw: string): string[] {
  const compact = raw.replace(/[\s-]+/g, '').toUpperCase();
  if (s10Valid(compact)) return ['kr.epost.ems'];
  if (!/^\d+$/.test(compact)) return [];
  switch (compact.length) {
    case 13:
      return ['kr.epost'];
    case 12:
      return mod7Valid(compact) ? ['kr.cjlogistics', 'kr.lotte', 'kr.hanjin'] : [];
    case 10:
      return mod7Valid(compact) ? ['kr.cjlogistics', 'kr.hanjin'] : [];
    case 11:
      return mod7Valid(compact) ? ['kr.logen'] : [];
    default:
      return [];
  }
}
