import { z } from 'zod';

/**
 * Structured output helpers: the `response_format` sent for a zod schema, and the parse of
 * what came back, tolerant of local servers that ignore the schema and answer in prose,
 * code fences or with a JSON object somewhere in the text.
 */

export function responseFormatFor(schema: z.ZodType, name: string) {
  const { $schema: _ignored, ...jsonSchema } = z.toJSONSchema(schema, { target: 'draft-7' }) as Record<string, unknown>;
  return {
    type: 'json_schema' as const,
    json_schema: { name, schema: jsonSchema, strict: isStrictCompatible(jsonSchema) },
  };
}

/**
 * OpenAI's strict mode needs every property required and no extra properties, at every
 * level; a schema with optional fields is sent non-strict rather than rejected.
 */
function isStrictCompatible(node: unknown): boolean {
  if (Array.isArray(node)) return node.every(isStrictCompatible);
  if (!node || typeof node !== 'object') return true;
  const record = node as Record<string, unknown>;
  if (record.type === 'object' && record.properties) {
    const keys = Object.keys(record.properties as object);
    const required = new Set((record.required as string[] | undefined) ?? []);
    if (record.additionalProperties !== false || keys.some((key) => !required.has(key))) return false;
  }
  return Object.values(record).every(isStrictCompatible);
}

/** The JSON values a reply may hold: the whole text, a fenced block, or the outermost {...}. */
function candidates(text: string): string[] {
  const trimmed = text.trim();
  const found = [trimmed];
  for (const match of trimmed.matchAll(/```(?:json)?\s*([\s\S]*?)```/gi)) if (match[1]) found.push(match[1].trim());
  const first = trimmed.indexOf('{');
  const last = trimmed.lastIndexOf('}');
  if (first >= 0 && last > first) found.push(trimmed.slice(first, last + 1));
  return found;
}

/** Parses a model's reply against the schema; undefined when no candidate fits. */
export function parseStructured<T extends z.ZodType>(schema: T, text: string): z.output<T> | undefined {
  for (const candidate of candidates(text)) {
    let value: unknown;
    try {
      value = JSON.parse(candidate);
    } catch {
      continue;
    }
    const result = schema.safeParse(value);
    if (result.success) return result.data;
  }
  return undefined;
}
