/**
 * 사업자등록번호: ten digits, written `123-45-67890`, the last a check digit the National Tax
 * Service publishes (weights 1,3,7,1,3,7,1,3,5 and the tens digit of 5 × the ninth digit).
 */

/** Spaces, hyphens and dots dropped: what is left of `123-45-67890` or `123 45 67890`. */
export function compactBusinessNumber(text: string): string {
  return text.replace(/[\s.\-–—]/g, '');
}

const WEIGHTS = [1, 3, 7, 1, 3, 7, 1, 3, 5] as const;

/** True when ten digits carry a valid check digit. */
export function hasValidCheckDigit(digits: string): boolean {
  if (!/^\d{10}$/.test(digits)) return false;
  const d = [...digits].map(Number);
  let sum = 0;
  WEIGHTS.forEach((weight, i) => (sum += d[i]! * weight));
  sum += Math.floor((d[8]! * 5) / 10);
  return (10 - (sum % 10)) % 10 === d[9];
}

/** What is wrong with a number a caller sent, in words a caller can act on; undefined when it is a business number. */
export function businessNumberProblem(digits: string): string | undefined {
  // A resident number (13 digits) is never sent anywhere: it is refused before any lookup.
  if (/^\d{13}$/.test(digits))
    return '13자리 번호는 주민등록번호나 법인등록번호일 수 있어 조회하지 않습니다. 10자리 사업자등록번호를 보내세요.';
  if (!/^\d+$/.test(digits)) return '사업자등록번호는 숫자 10자리여야 합니다 (예: 123-45-67890).';
  if (digits.length !== 10) return `사업자등록번호는 숫자 10자리여야 합니다 (${digits.length}자리를 받았습니다).`;
  if (!hasValidCheckDigit(digits)) return '사업자등록번호의 검증 숫자(마지막 자리)가 맞지 않습니다. 번호를 다시 확인하세요.';
  return undefined;
}

/** `123-45-67890` for display. */
export function formatBusinessNumber(digits: string): string {
  return `${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}`;
}

/** What logs may carry of a number: its last three digits. */
export function businessNumberTail(digits: string): string {
  return `…${digits.slice(-3)}`;
}
