import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { ChatbotOutput } from '../src/operations/chatbot/chatbot.js';
import type { DeliveryOutput } from '../src/operations/delivery/delivery.js';
import type { GenerateOutput } from '../src/operations/generate/generate.js';
import type { OcrIdcardOutput } from '../src/operations/ocr-idcard/ocr-idcard.js';
import { OUTPUT_SCHEMAS } from '../src/operations/output-schemas.js';
import type { ShortenOutput } from '../src/operations/shorten/shorten.js';
import type { ToneOutput } from '../src/operations/tone/tone.js';
import type { TranslateOutput } from '../src/operations/translate/translate.js';
import type { UrlDetectOutput } from '../src/operations/url-detect/url-detect.js';

type Documented<K extends keyof typeof OUTPUT_SCHEMAS> = z.output<(typeof OUTPUT_SCHEMAS)[K]>;

/**
 * The OpenAPI response schemas come from OUTPUT_SCHEMAS; this file fails to type-check
 * (`npm run typecheck`, `npm run lint`) the moment an operation returns something else.
 */
describe('documented success bodies', () => {
  it('are exactly what the operations return', () => {
    expectTypeOf<Documented<'tone-transformation'>>().toEqualTypeOf<ToneOutput>();
    expectTypeOf<Documented<'harmful-url-detection'>>().toEqualTypeOf<UrlDetectOutput>();
    expectTypeOf<Documented<'text-generation'>>().toEqualTypeOf<GenerateOutput>();
    expectTypeOf<Documented<'translation'>>().toEqualTypeOf<TranslateOutput>();
    expectTypeOf<Documented<'url-shortener'>>().toEqualTypeOf<ShortenOutput>();
    expectTypeOf<Documented<'ocr-idcard'>>().toEqualTypeOf<OcrIdcardOutput>();
    expectTypeOf<Documented<'delivery-tracking'>>().toEqualTypeOf<DeliveryOutput>();
    expectTypeOf<Documented<'chatbot-rag'>>().toEqualTypeOf<ChatbotOutput>();
  });
});
