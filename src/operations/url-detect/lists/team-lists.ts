import { z } from 'zod';
import table from '../data/team-lists.json' with { type: 'json' };
import { HARM_CATEGORIES, type HarmCategory } from './list-index.js';

/** A domain (`example.com` covers its sub-domains) or a URL prefix (`example.com/path`), lower-case. */
const entry = z.string().regex(/^[a-z0-9.-]+\.[a-z0-9-]+(\/\S*)?$/, 'a lower-case domain or URL prefix');
const teamLists = z.object(
  Object.fromEntries(HARM_CATEGORIES.map((category) => [category, z.array(entry)])) as Record<HarmCategory, z.ZodArray<typeof entry>>,
);

/**
 * Lists the team writes and ships with the build (data/team-lists.json, validated when the
 * module loads): well-known brands of each category, as domains or URL prefixes. Downloaded
 * feeds (`npm run lists:update`) add to these in the database.
 */
export const TEAM_LISTS: Record<HarmCategory, readonly string[]> = (() => {
  const parsed = teamLists.safeParse(table);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new Error(`url-detect/data/team-lists.json: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
})();
