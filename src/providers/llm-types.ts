import type { z } from 'zod';
import type { UpstreamObserver } from './upstream-observer.js';
import type { Logger } from '../logger.js';
import type { FailureMapping } from './llm-errors.js';

/** The provider's own vocabulary, independent of the SDK's types. */

export type TokenParam = 'max_tokens' | 'max_completion_tokens';

export type ContentPart = { type: 'text'; text: string } | { type: 'image'; url: string; detail?: 'auto' | 'low' | 'high' };

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string | ContentPart[];
}

export interface ChatRequest {
  messages: ChatMessage[];
  /** Defaults to OPENAI_MODEL; pass `provider.models.vision` for images. */
  model?: string;
  maxTokens?: number;
  temperature?: number;
}

export interface CallOptions {
  /** What connection failures and 5xx become (default 502 UPSTREAM_ERROR). */
  failure?: FailureMapping;
  timeoutMs?: number;
  /** The request's child logger; sizes and timings only are logged. */
  logger?: Logger;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface ChatResult {
  text: string;
  usage: TokenUsage;
  finishReason: string;
}

export interface ModerationResult {
  flagged: boolean;
  /** Names of the flagged categories (OpenAI's, e.g. `violence`, `self-harm/instructions`). */
  categories: string[];
}

/** The one LLM adapter (src/providers/llm.ts): what every AI-backed operation may ask of a model. */
export interface LlmProvider {
  /** False when neither OPENAI_API_KEY nor OPENAI_BASE_URL is set: every call answers 503. */
  readonly configured: boolean;
  readonly models: { chat: string; vision: string; embedding: string; moderation: string };
  readonly tokenParam: TokenParam;
  /** One chat completion: the answer's text and the upstream's token usage. */
  chat(request: ChatRequest, opts?: CallOptions): Promise<ChatResult>;
  /** A completion whose answer must match a zod schema (asked once more when it does not fit, then 502). */
  structured<T extends z.ZodType>(
    request: ChatRequest & { schema: T; schemaName: string },
    opts?: CallOptions,
  ): Promise<{ data: z.output<T>; usage: TokenUsage }>;
  /** Streams the answer's text as it is generated (retries only before the first byte). */
  stream(request: ChatRequest, opts?: CallOptions): AsyncGenerator<string, TokenUsage>;
  /** One embedding vector per text, in order. */
  embed(texts: string[], opts?: CallOptions & { model?: string }): Promise<number[][]>;
  /** The upstream's moderation verdict, or undefined when it has none or it failed. */
  moderate(text: string, opts?: CallOptions): Promise<ModerationResult | undefined>;
}

export interface LlmProviderOptions {
  apiKey?: string;
  baseUrl?: string;
  model: string;
  visionModel?: string;
  embeddingModel?: string;
  moderationModel?: string;
  timeoutMs: number;
  /** Ceiling on one answer's body, streams included (default `LLM_BODY_LIMIT_BYTES`). */
  bodyLimitBytes?: number;
  /** Name of the output-length parameter; by default chosen from the base URL. */
  tokenParam?: TokenParam;
  /** Further attempts after a 429/5xx (default 2), with exponential backoff from `retryBaseDelayMs`. */
  maxRetries?: number;
  retryBaseDelayMs?: number;
  logger: Logger;
  /** Told of every call's duration and outcome (the runtime's metrics). */
  observe?: UpstreamObserver;
}
