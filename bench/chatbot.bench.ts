import { sql } from 'drizzle-orm';
import { rowsOf } from '../db/rows.js';
import { chunkSpans } from '../src/operations/chatbot/chunk.js';
import { createKnowledgeStore } from '../src/operations/chatbot/knowledge-store.js';
import { queryTerms, toOrQueryLiteral } from '../src/operations/chatbot/tokenize.js';
import { ANSWERABLE, EVAL_ENTRIES, generateDistractors, UNANSWERABLE } from '../test/data/chatbot-eval.js';
import { startFakeOpenAI, type FakeOpenAI } from '../test/fakes/openai-server.js';
import { percentile, postJson, startBenchService } from './lib.js';

/**
 * Knowledge chatbot `chat` latency (no LLM: retrieval + extractive answer) over HTTP, one
 * request at a time, with 1,000 and 100,000 entries in one account; the `list` action on the
 * same door is the baseline (key check, quota, JSON, one indexed query). The entries are the
 * evaluation set among generated distractors, stored in batches through the knowledge store.
 * PGlite by default; PostgreSQL with BENCH_DATABASE_URL. CHATBOT_BENCH_SIZES=1000,100000 by default.
 * A last run at 1,000 entries adds embeddings (1,536 dimensions, a local fake embedding server)
 * to show what the vector scan and rank fusion cost.
 */
export async function run(): Promise<void> {
  const sizes = (process.env.CHATBOT_BENCH_SIZES ?? '1000,100000').split(',').filter(Boolean).map(Number);
  for (const size of sizes) await measure(size);
  if (process.env.CHATBOT_BENCH_VECTORS !== '0') {
    const fake = await startFakeOpenAI();
    fake.onEmbeddings((req) => ({ embeddings: (req.body.input as string[]).map((text) => vector(text)) }));
    try {
      await measure(1000, fake);
    } finally {
      await fake.close();
    }
  }
}

const DIMENSIONS = 1536;

/** A deterministic pseudo-embedding (what it encodes does not matter for timing). */
function vector(text: string): number[] {
  let seed = [...text].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 7);
  return Array.from({ length: DIMENSIONS }, () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32 - 0.5);
}

async function measure(size: number, embeddings?: FakeOpenAI): Promise<void> {
  const env: Record<string, string> = embeddings ? { OPENAI_BASE_URL: embeddings.url, OPENAI_EMBEDDING_MODEL: 'bench-embedding' } : {};
  const service = await startBenchService(env, { chatbot: { maxEntries: size + 1000, maxChars: 1_000_000_000 } });
  const { base, apiKey, runtime } = service;
  const headers = { 'x-api-key': apiKey };
  try {
    await postJson(base, '/api/v1/chatbot/rag', { action: 'index', content: EVAL_ENTRIES[0] }, headers);
    const [owner] = rowsOf<{ account_id: number }>(
      await runtime.db.execute(sql`select account_id from knowledge_entries order by id desc limit 1`),
    );
    const accountId = owner!.account_id;
    const store = createKnowledgeStore(runtime.db, { maxEntries: size + 1000, maxChars: 1_000_000_000 });

    const texts = [...EVAL_ENTRIES.slice(1), ...generateDistractors(size - EVAL_ENTRIES.length)];
    const started = performance.now();
    for (let start = 0; start < texts.length; start += 1000) {
      const batch = texts.slice(start, start + 1000).map((content) => ({ content, chunks: chunkSpans(content) }));
      await store.add(
        accountId,
        embeddings
          ? batch.map((entry) => ({ ...entry, embeddings: entry.chunks.map((span) => vector(entry.content.slice(span.start, span.end))) }))
          : batch,
      );
    }
    const loadSeconds = (performance.now() - started) / 1000;
    if (runtime.databaseKind === 'postgres') await runtime.db.execute(sql`analyze knowledge_chunks`);

    const questions = [...ANSWERABLE.map((q) => q.question), ...UNANSWERABLE];
    const rounds = size > 10_000 ? 1 : 3;
    const time = async (body: unknown) => {
      const t = performance.now();
      const res = await fetch(`${base}/api/v1/chatbot/rag`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      await res.json();
      if (res.status !== 200) throw new Error(`status ${res.status}`);
      return performance.now() - t;
    };
    // Warm-up; the first request may meet a keep-alive socket the server closed during the load.
    await time({ action: 'list' }).catch(() => undefined);
    for (const message of questions.slice(0, 5)) await time({ action: 'chat', message });
    const chat: number[] = [];
    const list: number[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const message of questions) {
        chat.push(await time({ action: 'chat', message }));
        list.push(await time({ action: 'list', limit: 20 }));
      }
    }
    // The hostile question of issue #18: 2,000 characters whose syllable pairs are all different.
    const hostile = Array.from({ length: 2000 }, (_, i) => String.fromCharCode(0xac00 + ((i * 7919) % 11172))).join('');
    const attack: number[] = [];
    for (let i = 0; i < 3; i++) attack.push(await time({ action: 'chat', message: hostile }));
    const [stored] = rowsOf<{ bytes: number; chars: number }>(
      await runtime.db
        .execute(sql`select (select sum(pg_total_relation_size(oid)) from pg_class where relname in ('knowledge_entries', 'knowledge_chunks', 'knowledge_stats'))::float8 as bytes,
        (select sum(char_length(content)) from knowledge_entries)::float8 as chars`),
    );
    let candidates = 0;
    for (const message of questions) {
      const terms = queryTerms(message);
      const [row] = rowsOf<{ n: number }>(
        await runtime.db.execute(
          sql`select count(*)::int as n from knowledge_chunks where account_id = ${accountId} and tokens @@ ${toOrQueryLiteral(terms)}::tsquery`,
        ),
      );
      candidates += row?.n ?? 0;
    }

    const p = (values: number[], q: number) => percentile(values, q).toFixed(1);
    const mode = embeddings ? `, BM25 + ${DIMENSIONS}-dimension vectors (RRF), LLM and embedding servers: local fakes` : '';
    console.log(`\n## Knowledge chatbot chat, ${size.toLocaleString('en-US')} entries in one account (${runtime.databaseKind}${mode})`);
    console.log(
      `load: ${texts.length + 1} entries in ${loadSeconds.toFixed(1)} s (${Math.round((texts.length + 1) / loadSeconds)} entries/s)`,
    );
    console.log(`chat  (${chat.length} questions)   p50 ${p(chat, 50)} ms  p95 ${p(chat, 95)} ms`);
    console.log(`list  (baseline)          p50 ${p(list, 50)} ms  p95 ${p(list, 95)} ms`);
    console.log(`ratio chat p50 / list p50: ${(percentile(chat, 50) / percentile(list, 50)).toFixed(1)}`);
    console.log(`BM25 candidates per question (chunks sharing a term): mean ${Math.round(candidates / questions.length)}`);
    console.log(`hostile 2,000-character question: ${attack.map((ms) => ms.toFixed(0)).join(' / ')} ms`);
    console.log(`storage: ${(Number(stored?.bytes) / Number(stored?.chars)).toFixed(1)} bytes per stored character (tables and indexes)`);
    console.log(size <= 1000 ? 'target: chat p50 ≤ 30 ms at 1,000 entries' : 'target: chat p50 ≤ 100 ms at 100,000 entries');
    // Leave a shared PostgreSQL as it was.
    await postJson(base, '/api/v1/chatbot/rag', { action: 'clear' }, headers);
  } finally {
    await service.close();
  }
}
