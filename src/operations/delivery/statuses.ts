/** Delivery Tracker v2 status codes in lower case, with their Korean labels (CONTRACT §5). */
export const STATUS_LABELS = {
  information_received: '상품준비중',
  at_pickup: '상품인수',
  in_transit: '상품이동중',
  out_for_delivery: '배송출발',
  attempt_fail: '배달실패',
  delivered: '배송완료',
  available_for_pickup: '픽업가능',
  exception: '배송예외',
  unknown: '알수없음',
} as const;

export type StatusId = keyof typeof STATUS_LABELS;

/** `IN_TRANSIT` → `in_transit`; a code this service does not know is `unknown`. */
export function statusIdOf(code: string | null | undefined): StatusId {
  const id = (code ?? '').toLowerCase();
  return id in STATUS_LABELS ? (id as StatusId) : 'unknown';
}
