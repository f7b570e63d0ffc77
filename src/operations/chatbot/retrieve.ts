import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';
import { rowsOf } from '../../../db/rows.js';
import { unitVector } from './knowledge-store.js';
import { MAX_QUERY_TERMS, toOrQueryLiteral } from './tokenize.js';

export interface RetrievedChunk {
  chunkId: number;
  entryId: number;
  /** The chunk's place in its entry's text. */
  start: number;
  end: number;
  /** The question's terms the chunk contains. */
  matched: string[];
  /** BM25 score (0 when only the vector search found the chunk). */
  bm25: number;
  /** Share of the question's IDF weight that this chunk matches, 0–1: the relevance gate. */
  coverage: number;
  /** Cosine similarity to the question, when embeddings are in use. */
  similarity?: number;
  /** The fused rank score (RRF) or the BM25 score when only words are used. */
  score: number;
}

export interface Retrieval {
  chunks: RetrievedChunk[];
  /** IDF of every question term in this account's knowledge (absent terms get the largest). */
  idf: Map<string, number>;
  /** How many of the account's chunks hold each question term. */
  df: Map<string, number>;
}

const K1 = 1.2;
const B = 0.75;
/** Reciprocal rank fusion's constant (Cormack et al. 2009). */
const RRF_K = 60;

/** Chunks sharing a term with the question that one search looks at: a bound on its work, whatever the question. */
export const MAX_CANDIDATES = 20_000;
/**
 * No search may run longer on PostgreSQL. PGlite ignores statement_timeout (it runs on the
 * event loop, with no timer signal): there the caps above bound the work instead.
 */
export const STATEMENT_TIMEOUT_MS = 5_000;

interface Bm25Row {
  chunk_id: number;
  entry_id: number;
  start_offset: number;
  end_offset: number;
  score: number;
  matched: string[] | string;
  dfs: Record<string, number> | string | null;
  n: number;
}

/**
 * BM25 over the tsvector index, entirely in SQL. The OR query fetches every chunk of the
 * account that shares a term with the question through the GIN index; since that set holds
 * every chunk containing any query term, the document frequencies are counted from it
 * exactly, without a further scan. `setweight` + `ts_filter` keep only the question's
 * lexemes of each candidate (with their positions: the term frequencies), so only those are
 * unnested. Each CTE is MATERIALIZED so both engines evaluate it once, in this order.
 */
async function bm25(
  db: Pick<Database, 'execute'>,
  accountId: number,
  terms: string[],
  limit: number,
  scopes: readonly string[],
): Promise<{ rows: Bm25Row[] }> {
  const result = await db.execute(sql`
    with stats as materialized (
      select greatest(chunk_count, 1)::float8 as n,
             greatest(token_total::float8 / greatest(chunk_count, 1), 1) as avgdl
      from knowledge_stats where account_id = ${accountId}
    ), candidates as materialized (
      select id, token_count, ts_filter(setweight(tokens, 'A', string_to_array(${terms.join(' ')}, ' ')), '{a}') as hits
      from knowledge_chunks
      where account_id = ${accountId} and tokens @@ ${toOrQueryLiteral(terms)}::tsquery and ${scopeCondition(scopes)}
      limit ${MAX_CANDIDATES}
    ), tf as materialized (
      select c.id, h.lexeme, cardinality(h.positions)::float8 as tf, c.token_count
      from candidates c, unnest(c.hits) as h
    ), df as materialized (
      select lexeme, count(*)::float8 as df from tf group by lexeme
    ), idf as materialized (
      select df.lexeme, ln(1 + (stats.n - df.df + 0.5) / (df.df + 0.5)) as idf from df, stats
    ), scored as materialized (
      select tf.id,
             sum(idf.idf * tf.tf * ${sql.raw(String(K1 + 1))} / (tf.tf + ${sql.raw(String(K1))} * (1 - ${sql.raw(String(B))} + ${sql.raw(String(B))} * tf.token_count / stats.avgdl))) as score,
             array_agg(tf.lexeme) as matched
      from tf join idf using (lexeme) cross join stats
      group by tf.id
      order by score desc, tf.id
      limit ${limit}
    )
    select s.id as chunk_id, c.entry_id, c.start_offset, c.end_offset, s.score, s.matched,
           (select json_object_agg(lexeme, df) from df) as dfs,
           (select n from stats) as n
    from scored s join knowledge_chunks c on c.id = s.id
    order by s.score desc, s.id`);
  return { rows: rowsOf<Bm25Row>(result) };
}

/**
 * Chunks that may answer where these scopes are: the common ones (scope null) and those of the
 * scopes, never another's (issue 39 item 4). Candidates are filtered before scoring, so a scoped
 * entry of another channel cannot even take a candidate place.
 */
function scopeCondition(scopes: readonly string[]) {
  if (scopes.length === 0) return sql`scope is null`;
  return sql`(scope is null or scope = any(string_to_array(${scopes.join('\u001f')}, ${'\u001f'})))`;
}

/** Runs the search in a transaction whose statements are cut off after STATEMENT_TIMEOUT_MS. */
export async function withStatementTimeout<T>(db: Database, run: (tx: Pick<Database, 'execute'>) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local statement_timeout = ${STATEMENT_TIMEOUT_MS}`));
    return run(tx);
  });
}

/** A term's frequency is counted up to this many chunks: past it, a term is common whatever its exact count. */
const DF_SAMPLE = 200;

/**
 * The question words to search for when a long question has more terms than MAX_QUERY_TERMS:
 * the rarest in the account's chunks (their frequency counted through the GIN index, up to
 * DF_SAMPLE each), in the question's order, so "the first 32" never leaves out the one
 * distinctive word at the end. Words the account never mentions come last: they find nothing.
 */
export async function informativeWords(
  db: Database,
  accountId: number,
  words: string[][],
  options: { max?: number; statementTimeout?: boolean } = {},
): Promise<string[][]> {
  const max = options.max ?? MAX_QUERY_TERMS;
  if (words.reduce((sum, word) => sum + word.length, 0) <= max) return words;
  const terms = [...new Set(words.flat())].filter((term) => /^[\p{L}\p{N}]+$/u.test(term));
  const frequencies = (tx: Pick<Database, 'execute'>) =>
    tx.execute(sql`
      select t.term,
             (select count(*) from (select 1 from knowledge_chunks c
                                    where c.account_id = ${accountId} and c.tokens @@ ('''' || t.term || '''')::tsquery
                                    limit ${DF_SAMPLE}) s)::int as df
      from unnest(string_to_array(${terms.join(' ')}, ' ')) as t(term)`);
  const rows = rowsOf<{ term: string; df: number }>(
    options.statementTimeout ? await withStatementTimeout(db, frequencies) : await frequencies(db),
  );
  const df = new Map(rows.map((row) => [row.term, Number(row.df)]));
  const rarity = (word: string[]) => Math.min(...word.map((term) => df.get(term) || Infinity));
  const order = words.map((word, i) => ({ word, i, rarity: rarity(word) })).sort((a, b) => a.rarity - b.rarity || a.i - b.i);
  const kept = new Set<number>();
  let count = 0;
  for (const { word, i } of order) {
    if (count + word.length > max) continue;
    kept.add(i);
    count += word.length;
  }
  return words.filter((_, i) => kept.has(i));
}

/** Lexical candidates whose embeddings are compared with the question's. */
const VECTOR_POOL = 100;

/**
 * Cosine similarity of the question to the stored unit vectors of the given chunks. Computed
 * here, not in SQL: without an extension, SQL multiplies arrays element by element through
 * `unnest`, which measured ~0.75 s for 1,000 chunks of 1,536 dimensions; here it is a few ms.
 */
async function similarities(db: Database, chunkIds: number[], question: number[]): Promise<Map<number, number>> {
  if (chunkIds.length === 0) return new Map();
  const rows = rowsOf<{ id: number; embedding: number[] | string | null }>(
    await db.execute(
      sql`select id, embedding from knowledge_chunks where id = any(string_to_array(${chunkIds.join(',')}, ',')::int[]) and embedding is not null`,
    ),
  );
  const q = unitVector(question);
  const result = new Map<number, number>();
  for (const row of rows) {
    const vector = typeof row.embedding === 'string' ? parseRealArray(row.embedding) : (row.embedding ?? []);
    if (vector.length !== q.length) continue; // stored with another model: not comparable
    let dot = 0;
    for (let i = 0; i < q.length; i++) dot += q[i]! * Number(vector[i]);
    result.set(Number(row.id), dot);
  }
  return result;
}

/** `{a,"b c"}` → ['a', 'b c'], for a driver that leaves arrays as text. */
function parseTextArray(text: string): string[] {
  return [...text.slice(1, -1).matchAll(/"((?:[^"\\]|\\.)*)"|([^,]+)/g)].map((m) =>
    m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]!,
  );
}

/** `{0.1,0.2}` → [0.1, 0.2], for a driver that leaves arrays as text. */
function parseRealArray(text: string): number[] {
  return text.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number);
}

/**
 * The chunks most relevant to a question: BM25 alone, or, when the question's embedding is
 * given, BM25's best candidates ranked again by vector similarity and the two rankings fused
 * by reciprocal rank. Vectors thus reorder what shares at least one term with the question;
 * they do not reach a chunk with no common term (that would need a vector index).
 */
export async function retrieve(
  db: Database,
  accountId: number,
  terms: string[],
  options: {
    limit?: number;
    questionEmbedding?: number[];
    words?: string[][];
    statementTimeout?: boolean;
    scopes?: readonly string[];
  } = {},
): Promise<Retrieval> {
  const limit = options.limit ?? 8;
  const pool = options.questionEmbedding ? VECTOR_POOL : limit;
  const search = (tx: Pick<Database, 'execute'>) => bm25(tx, accountId, terms, pool, options.scopes ?? []);
  const { rows } = terms.length === 0 ? { rows: [] } : options.statementTimeout ? await withStatementTimeout(db, search) : await search(db);
  const first = rows[0];
  const n = Math.max(1, Number(first?.n ?? 0));
  const dfs = typeof first?.dfs === 'string' ? (JSON.parse(first.dfs) as Record<string, number>) : (first?.dfs ?? {});
  // A term the account has never stored weighs as much as its rarest one (df = 1), not more:
  // otherwise, in a small knowledge base, one unknown word of a question outweighs all others.
  const idf = new Map(
    terms.map((term) => [
      term,
      Math.log(1 + (n - Math.max(1, Number(dfs[term] ?? 0)) + 0.5) / (Math.max(1, Number(dfs[term] ?? 0)) + 0.5)),
    ]),
  );
  const df = new Map(terms.map((term) => [term, Number(dfs[term] ?? 0)]));
  // Coverage counts each question word once, by its best-matching alternative.
  const groups = options.words ?? terms.map((term) => [term]);
  const wordIdf = (group: string[], has: (term: string) => boolean) => Math.max(0, ...group.filter(has).map((term) => idf.get(term) ?? 0));
  const totalIdf = groups.reduce((sum, group) => sum + wordIdf(group, () => true), 0) || 1;
  const coverage = (matched: string[]) => {
    const set = new Set(matched);
    return groups.reduce((sum, group) => sum + wordIdf(group, (term) => set.has(term)), 0) / totalIdf;
  };

  const lexical: RetrievedChunk[] = rows.map((row) => ({
    chunkId: Number(row.chunk_id),
    entryId: Number(row.entry_id),
    start: Number(row.start_offset),
    end: Number(row.end_offset),
    matched: typeof row.matched === 'string' ? parseTextArray(row.matched) : row.matched,
    bm25: Number(row.score),
    coverage: coverage(typeof row.matched === 'string' ? parseTextArray(row.matched) : row.matched),
    score: Number(row.score),
  }));
  if (!options.questionEmbedding) return { chunks: lexical, idf, df };

  // Vectors rank the lexical candidates a second time; the two rankings are fused by rank.
  const similarity = await similarities(
    db,
    lexical.map((chunk) => chunk.chunkId),
    options.questionEmbedding,
  );
  const byVector = [...similarity].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([id]) => id);
  const fused = reciprocalRankFusion([lexical.map((chunk) => chunk.chunkId), byVector]);
  const chunks = lexical
    .map((chunk) => ({ ...chunk, similarity: similarity.get(chunk.chunkId), score: fused.get(chunk.chunkId) ?? 0 }))
    .sort((a, b) => b.score - a.score || a.chunkId - b.chunkId)
    .slice(0, limit);
  return { chunks, idf, df };
}

/** Reciprocal rank fusion (Cormack et al. 2009): each ranking adds 1 / (k + rank) to an item's score. */
export function reciprocalRankFusion(rankings: number[][], k = RRF_K): Map<number, number> {
  const scores = new Map<number, number>();
  for (const ranking of rankings) ranking.forEach((id, rank) => scores.set(id, (scores.get(id) ?? 0) + 1 / (k + rank + 1)));
  return scores;
}
