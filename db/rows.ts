/**
 * The rows of a raw `db.execute(sql…)`: postgres.js returns them as the result, PGlite wraps
 * them in `{ rows }`. The one place that knows both drivers' shapes.
 */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
