import OpenAI, { APIError } from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { z } from 'zod';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { cappedFetch } from '../net/capped-body.js';
import { mapLlmError, notConfigured, refused, timedOut, upstreamFailure } from './llm-errors.js';
import { parseStructured, responseFormatFor } from './llm-json.js';
import { addUsage, toSdkMessage, usageOf, withSystemHint } from './llm-messages.js';
import { createRetrier } from './llm-retry.js';
import { upstreamOutcome } from './upstream-observer.js';
import type {
  CallOptions,
  ChatRequest,
  ChatResult,
  LlmProvider,
  LlmProviderOptions,
  ModerationResult,
  TokenParam,
  TokenUsage,
} from './llm-types.js';

export type { FailureMapping } from './llm-errors.js';
export type * from './llm-types.js';

const OPENAI_BASE_URL = 'https://api.openai.com/v1';
/** Ollama, vLLM, llama.cpp and LM Studio need no key, but the SDK insists on one. */
const PLACEHOLDER_KEY = 'not-needed';
/** Reasoning models served locally (DeepSeek-R1, Qwen3) prefix their answer with their thoughts. */
const THINKING = /^\s*<think>[\s\S]*?<\/think>\s*/;

/**
 * The largest answer body read from the AI server. A chat answer of a few thousand tokens is
 * tens of kilobytes (a stream a few hundred); a batch of embeddings a few megabytes.
 */
export const LLM_BODY_LIMIT_BYTES = 16 * 1024 * 1024;

/** OpenAI's own API rejects `max_tokens` on newer models; other servers only know `max_tokens`. */
export function defaultTokenParam(baseUrl: string | undefined): TokenParam {
  if (!baseUrl) return 'max_completion_tokens';
  const host = new URL(baseUrl).hostname;
  return host === 'api.openai.com' || host.endsWith('.openai.azure.com') ? 'max_completion_tokens' : 'max_tokens';
}

export function llmOptionsFromConfig(config: Config, logger: Logger): LlmProviderOptions {
  return {
    apiKey: config.OPENAI_API_KEY,
    baseUrl: config.OPENAI_BASE_URL,
    model: config.OPENAI_MODEL,
    visionModel: config.OPENAI_VISION_MODEL,
    embeddingModel: config.OPENAI_EMBEDDING_MODEL,
    timeoutMs: config.LLM_TIMEOUT_MS,
    tokenParam: config.OPENAI_TOKEN_PARAM,
    logger,
  };
}

/**
 * The one LLM adapter of the service, over the official `openai` SDK and any
 * OpenAI-compatible server. Every failure leaves as an AppError: not configured 503,
 * timeout 504, refusal 400, connection/5xx 502 unless the call names another code.
 * Prompts and outputs are never logged: only the kind of call and its duration (debug), and
 * the upstream status of a failure (warn).
 */
export function createLlmProvider(options: LlmProviderOptions): LlmProvider {
  const configured = Boolean(options.apiKey || options.baseUrl);
  const tokenParam = options.tokenParam ?? defaultTokenParam(options.baseUrl);
  const models = {
    chat: options.model,
    vision: options.visionModel ?? options.model,
    embedding: options.embeddingModel ?? 'text-embedding-3-small',
    moderation: options.moderationModel ?? 'omni-moderation-latest',
  };
  const client = configured
    ? new OpenAI({
        apiKey: options.apiKey ?? PLACEHOLDER_KEY,
        baseURL: options.baseUrl ?? OPENAI_BASE_URL,
        timeout: options.timeoutMs,
        // An endless or giant answer stops at the cap instead of filling the heap.
        fetch: cappedFetch(options.bodyLimitBytes ?? LLM_BODY_LIMIT_BYTES),
        maxRetries: 0, // our own retrier: 429/5xx only, never a timeout
        // config.ts is the only reader of the environment: keep the SDK from reading more of it.
        organization: null,
        project: null,
        webhookSecret: null,
      })
    : undefined;
  const retry = createRetrier({ maxRetries: options.maxRetries ?? 2, baseDelayMs: options.retryBaseDelayMs ?? 300 });
  let moderationSupported = true;

  function sdk(): OpenAI {
    if (!client) throw notConfigured();
    return client;
  }

  /**
   * Runs one SDK call with retries, logs its kind and duration, and maps its failure. The SDK's
   * own `timeout` stops at the response headers; the deadline's signal bounds the whole call,
   * body included, across retries (a stream keeps it until the stream ends).
   */
  async function call<T>(
    kind: string,
    openai: OpenAI,
    opts: CallOptions,
    run: (client: OpenAI, request: { timeout: number; signal: AbortSignal }) => Promise<T>,
    limit: Deadline = deadline(opts.timeoutMs ?? options.timeoutMs),
  ): Promise<T> {
    const timeout = opts.timeoutMs ?? options.timeoutMs;
    const logger = opts.logger ?? options.logger;
    const started = performance.now();
    try {
      const result = await retry(() => run(openai, { timeout, signal: limit.signal }));
      logger.debug({ llm: kind, ms: Math.round(performance.now() - started) }, 'llm call');
      options.observe?.('llm', kind, (performance.now() - started) / 1000, 'ok');
      return result;
    } catch (error) {
      const mapped = limit.signal.aborted ? timedOut(timeout) : mapLlmError(error, timeout, opts.failure);
      options.observe?.('llm', kind, (performance.now() - started) / 1000, upstreamOutcome(mapped));
      const status = (error as { status?: number }).status;
      logger.warn(
        { llm: kind, ms: Math.round(performance.now() - started), upstreamStatus: status, errorType: (error as Error).name },
        'llm call failed',
      );
      throw mapped;
    } finally {
      if (!limit.keep) limit.clear();
    }
  }

  function body(request: ChatRequest): ChatCompletionCreateParamsNonStreaming {
    return {
      model: request.model ?? models.chat,
      messages: request.messages.map(toSdkMessage),
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(request.maxTokens !== undefined ? { [tokenParam]: request.maxTokens } : {}),
    };
  }

  function readChoice(completion: ChatCompletion, opts: CallOptions): ChatResult {
    const choice = completion.choices?.[0];
    if (!choice) throw upstreamFailure(opts.failure, '빈 응답');
    if (choice.message.refusal) throw refused();
    if (choice.finish_reason === 'content_filter') throw refused('콘텐츠 필터');
    return {
      text: (choice.message.content ?? '').replace(THINKING, ''),
      usage: usageOf(completion.usage),
      finishReason: choice.finish_reason,
    };
  }

  return {
    /** False when neither OPENAI_API_KEY nor OPENAI_BASE_URL is set: every call answers 503. */
    configured,
    models,
    tokenParam,

    /** One chat completion: the answer's text and the upstream's token usage. */
    async chat(request: ChatRequest, opts: CallOptions = {}): Promise<ChatResult> {
      const completion = await call('chat', sdk(), opts, (c, sdkOptions) => c.chat.completions.create(body(request), sdkOptions));
      return readChoice(completion, opts);
    },

    /**
     * A chat completion whose answer must match a zod schema: sent as `json_schema`
     * response format, parsed leniently (local servers may ignore the format), asked once
     * more when it does not fit, then 502.
     */
    async structured<T extends z.ZodType>(
      request: ChatRequest & { schema: T; schemaName: string },
      opts: CallOptions = {},
    ): Promise<{ data: z.output<T>; usage: TokenUsage }> {
      const format = responseFormatFor(request.schema, request.schemaName);
      const hint = `Answer with one JSON object only, matching this JSON schema:\n${JSON.stringify(format.json_schema.schema)}`;
      const messages = withSystemHint(request.messages, hint);
      let usage = usageOf(undefined);
      for (let attempt = 0; attempt < 2; attempt++) {
        const completion = await call('structured', sdk(), opts, (c, sdkOptions) =>
          c.chat.completions.create({ ...body({ ...request, messages }), response_format: format }, sdkOptions),
        );
        const result = readChoice(completion, opts);
        usage = addUsage(usage, result.usage);
        const data = parseStructured(request.schema, result.text);
        if (data !== undefined) return { data, usage };
      }
      throw upstreamFailure(opts.failure, 'AI 응답이 요구한 형식이 아님');
    },

    /** Streams the answer's text as it is generated (retries only before the first byte). */
    async *stream(request: ChatRequest, opts: CallOptions = {}): AsyncGenerator<string, TokenUsage> {
      const limit = { ...deadline(opts.timeoutMs ?? options.timeoutMs), keep: true };
      const stream = await call(
        'stream',
        sdk(),
        opts,
        (c, sdkOptions) =>
          c.chat.completions.create({ ...body(request), stream: true, stream_options: { include_usage: true } }, sdkOptions),
        limit,
      ).catch((error: unknown) => {
        limit.clear();
        throw error;
      });
      let usage = usageOf(undefined);
      try {
        for await (const chunk of stream) {
          if (chunk.usage) usage = usageOf(chunk.usage);
          const delta = chunk.choices?.[0]?.delta?.content;
          if (delta) yield delta;
        }
      } catch (error) {
        const timeout = opts.timeoutMs ?? options.timeoutMs;
        throw limit.signal.aborted ? timedOut(timeout) : mapLlmError(error, timeout, opts.failure);
      } finally {
        limit.clear();
      }
      return usage;
    },

    /** One embedding vector per text, in order. */
    async embed(texts: string[], opts: CallOptions & { model?: string } = {}): Promise<number[][]> {
      if (texts.length === 0) return [];
      const response = await call('embed', sdk(), opts, (c, sdkOptions) =>
        c.embeddings.create({ model: opts.model ?? models.embedding, input: texts, encoding_format: 'float' }, sdkOptions),
      );
      return [...response.data].sort((a, b) => a.index - b.index).map((item) => item.embedding);
    },

    /**
     * The upstream's moderation verdict, or undefined when it has no moderation endpoint
     * (most local servers) or it failed: the caller then uses its offline rules.
     */
    async moderate(text: string, opts: CallOptions = {}): Promise<ModerationResult | undefined> {
      const openai = sdk();
      if (!moderationSupported) return undefined;
      try {
        const response = await call('moderate', openai, opts, async (c, sdkOptions) => {
          try {
            return await c.moderations.create({ model: models.moderation, input: text }, sdkOptions);
          } catch (error) {
            // This server has no moderation endpoint (most local ones): don't ask it again.
            if (error instanceof APIError && [404, 405, 501].includes(error.status ?? 0)) moderationSupported = false;
            throw error;
          }
        });
        const result = response.results[0];
        if (!result) return undefined;
        const categories = Object.entries(result.categories ?? {})
          .filter(([, flagged]) => flagged === true)
          .map(([name]) => name);
        return { flagged: result.flagged, categories };
      } catch {
        return undefined; // logged by call(); the caller falls back to its offline rules
      }
    },
  };
}

interface Deadline {
  signal: AbortSignal;
  clear(): void;
  /** A stream keeps its deadline past `call()`, until the last chunk. */
  keep?: boolean;
}

function deadline(ms: number): Deadline {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  timer.unref();
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}
