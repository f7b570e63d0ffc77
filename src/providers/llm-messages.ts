import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ChatMessage, TokenUsage } from './llm-types.js';

/** Translation between the provider's messages and usage and the SDK's. */

export function toSdkMessage(message: ChatMessage): ChatCompletionMessageParam {
  if (typeof message.content === 'string' || message.role !== 'user') {
    const text =
      typeof message.content === 'string'
        ? message.content
        : message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
    return { role: message.role, content: text };
  }
  return {
    role: 'user',
    content: message.content.map((part) =>
      part.type === 'text'
        ? { type: 'text' as const, text: part.text }
        : { type: 'image_url' as const, image_url: { url: part.url, detail: part.detail ?? 'auto' } },
    ),
  };
}

/**
 * Adds an instruction to the system message (for servers that ignore `response_format`).
 * Some local chat templates accept a system message only first, so it is merged, not appended.
 */
export function withSystemHint(messages: ChatMessage[], hint: string): ChatMessage[] {
  const [first, ...rest] = messages;
  if (first?.role === 'system' && typeof first.content === 'string')
    return [{ role: 'system', content: `${first.content}\n\n${hint}` }, ...rest];
  return [{ role: 'system', content: hint }, ...messages];
}

export function usageOf(
  usage: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | null | undefined,
): TokenUsage {
  const promptTokens = usage?.prompt_tokens ?? 0;
  const completionTokens = usage?.completion_tokens ?? 0;
  return { promptTokens, completionTokens, totalTokens: usage?.total_tokens ?? promptTokens + completionTokens };
}

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
}
