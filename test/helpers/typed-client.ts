import type { z } from 'zod';
import { operationBody, type OperationBody } from '../../api/response-schemas.js';
import type { ErrorCode } from '../../src/errors.js';
import { operationModule } from '../../src/operations/catalog.js';
import type { OperationModules } from '../../src/operations/modules.js';
import type { ApiId } from '../../src/platform/catalog.js';
import type { TestApp } from './app.js';

type ModuleOf<Id extends ApiId> = Extract<OperationModules, { catalog: { id: Id } }>;

/** What a caller may send to an operation: the input side of its module's schema. */
export type OperationInput<Id extends ApiId> = z.input<ModuleOf<Id>['input']>;

/** An operation's 200 body, typed from its route declaration (the module's output in the envelope). */
export type OperationSuccess<Id extends ApiId> = OperationBody<Id, ModuleOf<Id>['output']>;

/** CONTRACT §4's error body. */
export interface ErrorBody {
  success: false;
  code: number;
  error: string;
  error_code: ErrorCode;
  [extra: string]: unknown;
}

export type OperationResponse<Id extends ApiId> =
  | { ok: true; status: 200; headers: Headers; body: OperationSuccess<Id> }
  | { ok: false; status: number; headers: Headers; body: ErrorBody };

/**
 * Calls an operation as a client typed from the route declarations would: the input is checked
 * at compile time, and a 200 body is parsed with the route's declared schema before the test
 * sees it typed (so the type is earned, not asserted).
 */
export async function callOperation<Id extends ApiId>(
  app: TestApp,
  api: Id,
  input: OperationInput<Id>,
  apiKey?: string,
): Promise<OperationResponse<Id>> {
  const module = operationModule(api);
  const res = await app.post(module.catalog.path, input, apiKey);
  if (res.status !== 200) return { ok: false, status: res.status, headers: res.headers, body: res.body as ErrorBody };
  const body = operationBody(module).parse(res.body) as OperationSuccess<Id>;
  return { ok: true, status: 200, headers: res.headers, body };
}
