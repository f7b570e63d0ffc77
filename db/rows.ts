/**
 * The rows of a raw `db.execute(sql…)`: postgres.js returns them as the result, PGlite wraps
 * them in `{ rows }`. The one place that knows both drivers' shapes.
 */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/**
 * A statement on the driver itself, past drizzle's query builder: for the few statements of
 * every API call, where drizzle's per-query work costs as much as running them on PGlite.
 * On PostgreSQL the statement is prepared once per connection. Bind values are strings (cast
 * in the SQL) or numbers; both drivers return rows as objects keyed by column name.
 */
export async function rawRows<T>(db: object, text: string, params: Array<string | number | null>): Promise<T[]> {
  const client = (db as { $client: RawClient }).$client;
  if ('unsafe' in client) return (await client.unsafe(text, params, { prepare: true })) as T[];
  return (await client.query(text, params)).rows as T[];
}

type RawClient =
  | { unsafe(text: string, params: unknown[], options: { prepare: boolean }): Promise<unknown[]> }
  | { query(text: string, params: unknown[]): Promise<{ rows: unknown[] }> };

/** A PostgreSQL array literal of numbers, or of strings quoted and escaped; null is SQL NULL. */
export function arrayLiteral(values: ReadonlyArray<string | number | null>): string {
  return `{${values.map(elementLiteral).join(',')}}`;
}

function elementLiteral(value: string | number | null): string {
  if (value === null) return 'NULL';
  return typeof value === 'number' ? String(value) : `"${value.replace(/["\\]/g, '\\$&')}"`;
}
