import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai-server.js';
import { startTestApp, type TestApp, type TestUser } from './app.js';

export interface LlmTestContext {
  llm: FakeOpenAI;
  app: TestApp;
  user: TestUser;
}

/**
 * Registers the hooks of a suite whose LLM is the fake OpenAI server: one app (500 ms LLM
 * timeout, no retry backoff) and one signed-up user for the file, a clean fake before each
 * test. Read the fields inside tests: they are set in `beforeAll`.
 */
export function useLlmTestApp(): LlmTestContext {
  const context = {} as LlmTestContext;
  beforeAll(async () => {
    context.llm = await startFakeOpenAI();
    context.app = await startTestApp({ OPENAI_BASE_URL: context.llm.url, LLM_TIMEOUT_MS: '500' }, { llm: { retryBaseDelayMs: 1 } });
    context.user = await context.app.signUp();
  });
  afterAll(async () => {
    await context.app?.close();
    await context.llm?.close();
  });
  beforeEach(() => context.llm?.reset());
  return context;
}
