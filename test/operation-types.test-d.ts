import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { Answer } from '../bots/commands/types.js';
import type { OperationModules } from '../src/operations/modules.js';
import type { chatbotOutputSchema } from '../src/operations/chatbot/chatbot.schema.js';
import type { ocrIdcardOutputSchema } from '../src/operations/ocr-idcard/ocr-idcard.schema.js';
import type { urlDetectOutputSchema } from '../src/operations/url-detect/url-detect.schema.js';
import type { ApiId } from '../src/platform/catalog.js';
import type { InputOf, OutputOf } from '../src/platform/execute.js';
import type { Operations } from '../src/runtime.js';
import type { callOperation, OperationInput, OperationSuccess } from './helpers/typed-client.js';

/**
 * Run by `vitest --typecheck` (the `types` project of vitest.config.ts, part of `npm test`):
 * a mismatch fails this file as a test. What the doors, the bots and the tests are typed with
 * follows from each module's schemas, and nothing widens to `any` on the way.
 */
type ModuleOf<Id extends ApiId> = Extract<OperationModules, { catalog: { id: Id } }>;

describe('an operation module', () => {
  it('gives the runtime operation its output type: z.output of the output schema', () => {
    expectTypeOf<OutputOf<Operations['harmful-url-detection']>>().toEqualTypeOf<z.output<typeof urlDetectOutputSchema>>();
    expectTypeOf<OutputOf<Operations['ocr-idcard']>>().toEqualTypeOf<z.output<typeof ocrIdcardOutputSchema>>();
    expectTypeOf<OutputOf<Operations['chatbot-rag']>>().toEqualTypeOf<z.output<typeof chatbotOutputSchema>>();
  });

  it('does so for every operation, and types the input from the input schema', () => {
    type Outputs = { [Id in ApiId]: OutputOf<Operations[Id]> };
    type Declared = { [Id in ApiId]: z.output<ModuleOf<Id>['output']> };
    expectTypeOf<Outputs>().toEqualTypeOf<Declared>();
    type Inputs = { [Id in ApiId]: InputOf<Operations[Id]> };
    type DeclaredInputs = { [Id in ApiId]: z.input<ModuleOf<Id>['input']> };
    expectTypeOf<Inputs>().toEqualTypeOf<DeclaredInputs>();
  });

  it('names exactly the platform ids: one module per id', () => {
    expectTypeOf<OperationModules['catalog']['id']>().toEqualTypeOf<ApiId>();
    expectTypeOf<keyof Operations>().toEqualTypeOf<ApiId>();
  });
});

describe('the doors', () => {
  it('answer a bot with the output and the counter', () => {
    expectTypeOf<Answer<'translation'>>().toEqualTypeOf<OutputOf<Operations['translation']> & { remaining: number }>();
    expectTypeOf<InputOf<Operations['translation']>>().not.toBeAny();
  });

  it('answer HTTP with the envelope around the output, typed from the route declaration', () => {
    expectTypeOf<OperationSuccess<'harmful-url-detection'>>().toEqualTypeOf<
      { success: true; api: 'harmful-url-detection'; remaining: number } & z.output<typeof urlDetectOutputSchema>
    >();
    expectTypeOf<OperationSuccess<'harmful-url-detection'>['is_malicious']>().toEqualTypeOf<boolean>();
    expectTypeOf<OperationSuccess<'url-shortener'>['code']>().toEqualTypeOf<string>();
  });

  it('take only what the input schema accepts', () => {
    expectTypeOf<OperationInput<'harmful-url-detection'>>().toEqualTypeOf<{ url: string }>();
    expectTypeOf<typeof callOperation<'harmful-url-detection'>>().parameter(2).toEqualTypeOf<{ url: string }>();
    // @ts-expect-error a number is not a URL
    expectTypeOf<OperationInput<'harmful-url-detection'>>().toEqualTypeOf<{ url: number }>();
  });
});
