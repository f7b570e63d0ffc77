/** What kind of JSON value a caller sent: named in a refusal by its type, never by its content. */
export type JsonKind = 'null' | 'list' | 'not-a-number' | 'number' | 'text' | 'boolean' | 'object' | 'unknown';

export function jsonKind(input: unknown): JsonKind {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'list';
  if (typeof input === 'number') return Number.isNaN(input) ? 'not-a-number' : 'number';
  if (typeof input === 'string') return 'text';
  if (typeof input === 'boolean') return 'boolean';
  if (typeof input === 'object') return 'object';
  return 'unknown';
}

/** A value a rule names (a prefix, an allowed option), quoted when it is text. */
export const quote = (value: unknown): string => (typeof value === 'string' ? `'${value}'` : String(value));
