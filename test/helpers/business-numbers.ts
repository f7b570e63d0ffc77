import { hasValidCheckDigit } from '../../src/operations/business/business-number.js';

/** Nine digits completed with the NTS's published check digit: a valid 사업자등록번호 for tests. */
export function withCheckDigit(nine: string): string {
  for (let d = 0; d <= 9; d++) if (hasValidCheckDigit(`${nine}${d}`)) return `${nine}${d}`;
  throw new Error('no check digit');
}
