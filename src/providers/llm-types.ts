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

export interface LlmProviderOptions {
  apiKey?: string;
  baseUrl?: string;
  model: string;
  visionModel?: string;
  embeddingModel?: string;
  moderationModel?: string;
  timeoutMs: number;
  /** Name of the output-length parameter; by default chosen from the base URL. */
  tokenParam?: TokenParam;
  /** Further attempts after a 429/5xx (default 2), with exponential backoff from `retryBaseDelayMs`. */
  maxRetries?: number;
  retryBaseDelayMs?: number;
  logger: Logger;
}
