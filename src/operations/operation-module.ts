import type { z } from 'zod';
import type { Config } from '../config.js';
import type { AppError } from '../errors.js';
import type { ApiId } from '../platform/catalog.js';
import type { Operation } from '../platform/execute.js';

/** What this server has configured: decides which APIs answer and with what. */
export interface CatalogFeatures {
  llm: boolean;
  visionModel: boolean;
  /** False when every tracking lookup would fail (the hosted tracker without credentials). */
  tracker?: boolean;
}

export interface CatalogAvailability {
  /** False when every call would be answered 503 (the engine it needs is not configured). */
  available: boolean;
  /** What answers the calls here: `llm`, `retrieval`, `rules+lists`, `tesseract`, `tracker`, `links`, joined with `+`. */
  engine: string;
  /** Why not available, in a customer's terms (Korean and English); the variables to set are operator detail (src/server-status.ts). */
  unavailable_reason?: string;
  unavailable_reason_en?: string;
}

/** An operation's entry in the catalogue (CONTRACT §3): its id (the `api` of its answers), names, path and engine. */
export interface CatalogEntry<Id extends ApiId = ApiId> {
  id: Id;
  name: string;
  nameEn: string;
  path: `/api/v1/${string}`;
  category: string;
  categoryEn: string;
  requiresSubscription: boolean;
  description: string;
  descriptionEn: string;
  /** Whether it works on this server and what answers it, beside SPEC's fixed `status`. */
  availability(features: CatalogFeatures): CatalogAvailability;
}

/**
 * One operation, whole: its catalogue entry, the schemas of what it takes and gives (the output
 * type is `z.output` of `output`; the doors add `success`, `api`, `remaining`), one example for the
 * docs, the errors it can answer besides 400, 401, 403 and 429, and `create(deps)`, which the
 * runtime calls with the dependencies it names. The lists of operations (catalogue, runtime,
 * OpenAPI, error tables) are built from src/operations/modules.ts.
 */
export interface OperationModule<
  Id extends ApiId = ApiId,
  Input extends z.ZodType = z.ZodType,
  Output extends z.ZodType<object> = z.ZodType<object>,
  Deps = never,
> {
  catalog: CatalogEntry<Id>;
  input: Input;
  output: Output;
  /** The docs: the route's OpenAPI `operationId` (camelCase verb, stable: generated clients name their method after it), summary and one example. */
  example: { operationId: string; summary: string; request: z.input<Input>; response: z.output<Output> };
  /** Instances of what the code throws, for the docs: `config` gives the numbers they name (timeouts). */
  errors(config: Config): AppError[];
  /** A JSON body limit above the door's default (the ID reader's images). */
  bodyLimitMb?: number;
  create(deps: Deps): Operation<Input, z.output<Output>>;
}

/** Any module, for code that treats them alike (the routes, the catalogue). */
export type AnyOperationModule = OperationModule<ApiId, z.ZodType<unknown, object>, z.ZodType<object>, never>;

/** Declares a module; the helper only lets TypeScript infer the id, the schemas and the deps. */
export function defineOperation<Id extends ApiId, Input extends z.ZodType, Output extends z.ZodType<object>, Deps>(
  module: OperationModule<Id, Input, Output, Deps>,
): OperationModule<Id, Input, Output, Deps> {
  return module;
}

/** An LLM-only operation's availability: 503 without a model. */
export function needsLlm(features: CatalogFeatures): CatalogAvailability {
  return features.llm
    ? { available: true, engine: 'llm' }
    : {
        available: false,
        engine: 'llm',
        unavailable_reason: 'AI 모델이 연결되어 있지 않습니다',
        unavailable_reason_en: 'no AI model is connected',
      };
}

/** An engine that works alone and is helped by a model when one is configured. */
export function withLlm(base: string, features: CatalogFeatures): CatalogAvailability {
  return { available: true, engine: features.llm ? `${base}+llm` : base };
}
