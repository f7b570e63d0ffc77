import type { z } from 'zod';
import type { Logger } from '../logger.js';
import { parseInput } from '../validation.js';
import type { Account } from './accounts.js';
import type { ApiId } from './catalog.js';
import type { QuotaLease, Subscriptions } from './subscriptions.js';

/** Who is calling and where to log: built by each door (HTTP request, bot interaction, job). */
export interface OperationContext {
  account: Account;
  logger: Logger;
  requestId: string;
  /** Aborted when the caller goes away (HTTP client disconnected): long work may stop early. */
  signal?: AbortSignal;
}

/**
 * One of the eight operations: its catalogue id, the schema every door validates with, and
 * the function that does the work. `run` receives parsed input and returns a plain object.
 */
export interface Operation<Schema extends z.ZodType = z.ZodType, Output extends object = object> {
  api: ApiId;
  schema: Schema;
  run(ctx: OperationContext, input: z.output<Schema>): Promise<Output>;
  /** True for an answer that did no billable work (e.g. a translation into the text's own language): its call is given back. */
  isFree?(output: Output): boolean;
}

export interface OperationResult<Output> {
  body: Output & { remaining: number };
  lease: QuotaLease;
}

/**
 * Runs an operation for an account: validate (400 costs nothing), take one call from the
 * counter (403 / 429), run, and give the call back when anything fails afterwards, so only
 * answered calls are paid for.
 */
export async function executeOperation<Schema extends z.ZodType, Output extends object>(
  subscriptions: Subscriptions,
  operation: Operation<Schema, Output>,
  ctx: OperationContext,
  rawInput: unknown,
): Promise<OperationResult<Output>> {
  const input = parseInput(operation.schema, rawInput);
  const lease = await subscriptions.reserve(ctx.account.id, operation.api);
  try {
    const output = await operation.run(ctx, input);
    if (operation.isFree?.(output)) await lease.refund();
    return { body: { ...output, remaining: lease.remaining }, lease };
  } catch (error) {
    await lease.refund().catch((refundError: unknown) =>
      ctx.logger.error({ err: refundError, api: operation.api }, 'quota refund failed'),
    );
    throw error;
  }
}
