import { streamForever } from './endless-body.js';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake OpenAI-compatible server for tests: the real `openai` SDK talks to it over HTTP.
 * Replies are scripted per endpoint (a FIFO queue, then a responder function), and every
 * request is logged with its parsed body so tests can assert on what the service sent.
 *
 *   const llm = await startFakeOpenAI();            // OPENAI_BASE_URL = llm.url
 *   llm.chat({ content: 'hi' }, { status: 500 });  // next two chat completions
 *   llm.onChat((req) => ({ json: { ok: true } })); // then this, for every other one
 *   llm.requestsTo('chat').at(-1)?.body.messages
 */

export type Endpoint = 'chat' | 'embeddings' | 'moderations';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
}

export interface FakeUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/**
 * One scripted answer. Any reply may wait `delayMs` first (a slow server); a JSON answer may
 * be sent one character every `trickleMs` after its headers (a server that stalls mid-body), or
 * cut after `truncateAt` characters (a proxy that drops the end of the body).
 */
export type FakeReply = { delayMs?: number; trickleMs?: number; truncateAt?: number } & (
  | { content: string; usage?: Partial<FakeUsage>; finishReason?: string; chunks?: string[] }
  | { json: unknown; usage?: Partial<FakeUsage> }
  | { refusal: string }
  | { status: number; error?: { message?: string; type?: string; code?: string }; headers?: Record<string, string> }
  | { hangUp: true }
  /** A 200 whose body never ends (see `streamForever`); bytes sent are counted in `endlessBytes`. */
  | { endless: true }
  | { embeddings: number[][] }
  | { flagged: boolean; categories?: string[] }
);

export type Responder = (request: ReceivedRequest) => FakeReply;

export interface FakeOpenAI {
  /** Base URL including `/v1`, for OPENAI_BASE_URL. */
  url: string;
  requests: ReceivedRequest[];
  requestsTo(endpoint: Endpoint): ReceivedRequest[];
  chat(...replies: FakeReply[]): void;
  embeddings(...replies: FakeReply[]): void;
  moderations(...replies: FakeReply[]): void;
  onChat(responder: Responder): void;
  onEmbeddings(responder: Responder): void;
  onModerations(responder: Responder): void;
  /** Forgets queued replies, responders and the request log. */
  reset(): void;
  close(): Promise<void>;
  /** Bytes sent so far by `{ endless: true }` replies. */
  readonly endlessBytes: number;
}

const PATHS: Record<string, Endpoint> = {
  '/v1/chat/completions': 'chat',
  '/v1/embeddings': 'embeddings',
  '/v1/moderations': 'moderations',
};

/** By default chat echoes the last user message, so a bench or a careless test sees its input. */
const DEFAULT_RESPONDERS: Record<Endpoint, Responder> = {
  chat: (req) => ({ content: lastUserText(req.body) }),
  embeddings: (req) => ({ embeddings: inputsOf(req.body).map((text) => hashVector(text, req.body.dimensions ?? 8)) }),
  moderations: () => ({ flagged: false }),
};

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const queues: Record<Endpoint, FakeReply[]> = { chat: [], embeddings: [], moderations: [] };
  const responders: Record<Endpoint, Responder> = { ...DEFAULT_RESPONDERS };
  const requests: ReceivedRequest[] = [];
  const endless = { bytes: 0 };

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '').split('?')[0] ?? '';
    const request: ReceivedRequest = { method: req.method ?? 'GET', path, headers: req.headers, body: raw ? safeJson(raw) : undefined };
    requests.push(request);
    const endpoint = PATHS[path];
    if (!endpoint || req.method !== 'POST') {
      return sendJson(res, 404, { error: { message: `no route ${req.method} ${path}`, type: 'invalid_request_error', code: null } });
    }
    const reply = queues[endpoint].shift() ?? responders[endpoint](request);
    if (reply.delayMs) {
      const closed = await Promise.race([
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), reply.delayMs).unref()),
        new Promise<boolean>((resolve) => res.once('close', () => resolve(true))),
      ]);
      if (closed) return; // the client gave up (timeout)
    }
    if ('endless' in reply) return streamForever(res, (bytes) => (endless.bytes += bytes));
    answer(res, endpoint, request, reply);
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    requestsTo: (endpoint) => requests.filter((r) => PATHS[r.path] === endpoint),
    chat: (...replies) => void queues.chat.push(...replies),
    embeddings: (...replies) => void queues.embeddings.push(...replies),
    moderations: (...replies) => void queues.moderations.push(...replies),
    onChat: (responder) => void (responders.chat = responder),
    onEmbeddings: (responder) => void (responders.embeddings = responder),
    onModerations: (responder) => void (responders.moderations = responder),
    get endlessBytes() {
      return endless.bytes;
    },
    reset() {
      endless.bytes = 0;
      for (const queue of Object.values(queues)) queue.length = 0;
      Object.assign(responders, DEFAULT_RESPONDERS);
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answer(res: ServerResponse, endpoint: Endpoint, request: ReceivedRequest, reply: FakeReply): void {
  if ('hangUp' in reply) return void res.socket?.destroy();
  if ('status' in reply) {
    const error = { message: 'fake failure', type: 'server_error', code: null, ...reply.error };
    return sendJson(res, reply.status, { error }, reply.headers);
  }
  if (endpoint === 'embeddings' && 'embeddings' in reply) {
    return sendJson(res, 200, {
      object: 'list',
      model: request.body?.model,
      data: reply.embeddings.map((embedding, index) => ({ object: 'embedding', index, embedding })),
      usage: { prompt_tokens: inputsOf(request.body).join(' ').length, total_tokens: inputsOf(request.body).join(' ').length },
    });
  }
  if (endpoint === 'moderations' && 'flagged' in reply) {
    const categories = Object.fromEntries((reply.categories ?? []).map((name) => [name, true]));
    return sendJson(res, 200, {
      id: 'modr-fake',
      model: request.body?.model,
      results: [{ flagged: reply.flagged, categories, category_scores: {} }],
    });
  }
  if (endpoint === 'chat') return answerChat(res, request, reply);
  sendJson(res, 500, { error: { message: `reply does not fit ${endpoint}`, type: 'server_error' } });
}

function answerChat(res: ServerResponse, request: ReceivedRequest, reply: FakeReply): void {
  const refusal = 'refusal' in reply ? reply.refusal : null;
  const content = 'content' in reply ? reply.content : 'json' in reply ? JSON.stringify(reply.json) : refusal ? null : '';
  const finishReason = ('finishReason' in reply && reply.finishReason) || 'stop';
  const given = 'usage' in reply ? reply.usage : undefined;
  const prompt = given?.prompt_tokens ?? JSON.stringify(request.body?.messages ?? []).length;
  const completion = given?.completion_tokens ?? (content ?? '').length;
  const usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: given?.total_tokens ?? prompt + completion };
  const base = { id: 'chatcmpl-fake', created: Math.floor(Date.now() / 1000), model: request.body?.model ?? 'fake' };

  if (request.body?.stream) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const pieces = ('chunks' in reply && reply.chunks) || (content ?? '').split(/(?<=\s)/);
    const event = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
    for (const piece of pieces)
      event({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
    event({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: finishReason }] });
    if (request.body.stream_options?.include_usage) event({ ...base, object: 'chat.completion.chunk', choices: [], usage });
    res.end('data: [DONE]\n\n');
    return;
  }
  const body = {
    ...base,
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content, refusal }, finish_reason: finishReason, logprobs: null }],
    usage,
  };
  if (reply.trickleMs || reply.truncateAt !== undefined) return sendSlowly(res, JSON.stringify(body), reply);
  sendJson(res, 200, body);
}

/** Headers at once, then the body a character at a time and/or cut short (no Content-Length). */
function sendSlowly(res: ServerResponse, text: string, reply: { trickleMs?: number; truncateAt?: number }): void {
  const body = reply.truncateAt !== undefined ? text.slice(0, reply.truncateAt) : text;
  res.writeHead(200, { 'content-type': 'application/json' });
  if (!reply.trickleMs) return void res.end(body);
  let at = 0;
  const timer = setInterval(() => {
    if (res.destroyed || at >= body.length) {
      clearInterval(timer);
      if (!res.destroyed) res.end();
      return;
    }
    res.write(body[at++]);
  }, reply.trickleMs);
  timer.unref();
  res.once('close', () => clearInterval(timer));
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** The text of the last user message (string or content parts). */
export function lastUserText(body: any): string {
  const messages: any[] = body?.messages ?? [];
  const last = [...messages].reverse().find((m) => m.role === 'user');
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return (last.content as any[])
    .filter((p) => p.type === 'text')
    .map((p) => p.text)
    .join('');
}

/** The system messages of a chat request, joined: where the service puts its instructions. */
export function systemText(body: any): string {
  return ((body?.messages ?? []) as any[])
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n');
}

function inputsOf(body: any): string[] {
  const input = body?.input;
  return Array.isArray(input) ? input.map(String) : [String(input ?? '')];
}

/** A deterministic unit vector from a text, so similar tests get stable embeddings. */
function hashVector(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (let i = 0; i < text.length; i++) vector[i % dimensions]! += (text.charCodeAt(i) % 31) + 1;
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}
