/** CONTRACT §5 `scam_type` values. */
export const SCAM_TYPES = [
  'family_impersonation',
  'institution_impersonation',
  'parcel',
  'finance_alert',
  'loan',
  'investment',
  'invitation',
  'fine_or_tax',
  'prize_or_refund',
  'job',
  'romance',
  'other',
] as const;
export type ScamType = (typeof SCAM_TYPES)[number];
