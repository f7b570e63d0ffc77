import type { z } from 'zod';
import { AppError, fromDatabaseError } from '../errors.js';
import type { Logger } from '../logger.js';
import { parseInput } from '../validation.js';
import type { Account } from './accounts.js';
import { outcomeOfCode, type OperationObserver } from './metric-definitions.js';
import type { ApiId } from './catalog.js';
import type { Quota, QuotaLease, QuotaState } from './quota.js';

/** Who is calling and where to log: built by each door (HTTP request, bot interaction, job). */
export interface Caller {
  account: Account;
  logger: Logger;
  requestId: string;
  /** Aborted when the caller goes away (HTTP client disconnected): long work may stop early. */
  signal?: AbortSignal;
  /** The chat workspace the call comes from (`slack:T…`, `discord:…`): what it remembers is its own. */
  workspace?: string;
}

/** What an operation receives besides its input: the caller, and the one way to charge a call. */
export interface OperationContext extends Caller {
  /**
   * Takes one call of `api` from the caller's counter (403 without a subscription, 429 when
   * used up). The executor gives it back when the run fails, unless the error `earns` it.
   */
  charge(api: ApiId): Promise<QuotaState & Partial<RecordableCall>>;
  /**
   * The operation's own call, charged before `run`, for a statement that writes the result and
   * counts the call off together. The executor's context has it (and `charge` answers its calls
   * the same way); a context without a counter behind it (a unit test's) may not.
   */
  ownCall?(): RecordableCall;
}

/** A charged call's hold, and how to say a statement of the operation's own counted it off with its result. */
export type RecordableCall = Pick<QuotaLease, 'holdId' | 'settledWithResult'>;

/**
 * An operation: the catalogue id it charges (once, before `run`), the schema every door
 * validates with, and the function that does the work and returns domain data (the doors
 * add `success`, `api` and `remaining`).
 */
export interface Operation<Schema extends z.ZodType = z.ZodType, Output extends object = object> {
  api: ApiId;
  schema: Schema;
  run(ctx: OperationContext, input: z.output<Schema>): Promise<Output>;
  /** True for an answer that did no billable work (e.g. a translation into the text's own language): its call is given back. */
  isFree?(output: Output): boolean;
}

/** The input and output types of an operation, for the doors. */
export type InputOf<Op> = Op extends Operation<infer Schema, object> ? z.input<Schema> : never;
export type OutputOf<Op> = Op extends Operation<z.ZodType, infer Output> ? Output : never;

export interface Executed<Output> {
  output: Output;
  /** The operation's own counter after the call (a free answer already given back). */
  quota: QuotaState;
}

/**
 * Runs an operation for a caller: validate (400 costs nothing), charge the operation's call
 * (403 / 429), run, and give back every charge of the run when it fails, so only answered
 * calls are paid for. A failed refund is logged and never replaces the run's own error.
 * `observe` (the runtime's metrics) counts the call by operation and outcome.
 */
export function executeOperation<Schema extends z.ZodType, Output extends object>(
  quota: Quota,
  operation: Operation<Schema, Output>,
  caller: Caller,
  rawInput: unknown,
  observe?: OperationObserver,
): Promise<Executed<Output>> {
  const executed = execute(quota, operation, caller, rawInput);
  if (!observe) return executed;
  return executed.then(
    (result) => {
      observe(operation.api, 'ok');
      return result;
    },
    (error: unknown) => {
      // Refusals (validation, subscription, quota) and failures (upstream …) by their error code.
      observe(operation.api, outcomeOfCode((error instanceof AppError ? error : fromDatabaseError(error))?.code));
      throw error;
    },
  );
}

async function execute<Schema extends z.ZodType, Output extends object>(
  quota: Quota,
  operation: Operation<Schema, Output>,
  caller: Caller,
  rawInput: unknown,
): Promise<Executed<Output>> {
  const input = parseInput(operation.schema, rawInput);
  const ctx = new RunContext(quota, caller);
  const own = await ctx.charge(operation.api);
  const { leases } = ctx;
  try {
    const output = await operation.run(ctx, input);
    if (operation.isFree?.(output)) await refund(leases[0]!, caller.logger);
    // Every charge is recorded before the answer leaves: a crash before this gives them back.
    // Most runs charge once: that lease settles without Promise.all's array and extra promise.
    await (leases.length === 1 ? own.settle() : Promise.all(leases.map((lease) => lease.settle())));
    // Several calls of the operation's own API (a message's URLs): the counter after the last.
    return { output, quota: snapshot(leases.findLast((lease) => lease.api === own.api) ?? own) };
  } catch (error) {
    const earned = error instanceof AppError ? error.earnedCharge : undefined;
    const kept = await Promise.all(
      leases.map((lease) =>
        lease.api === earned
          ? lease.settle().then(
              () => true,
              () => false,
            )
          : refund(lease, caller.logger).then(() => true),
      ),
    );
    // An earned charge that could not be recorded is not paid for: the call fails as unavailable.
    if (kept.includes(false)) throw new AppError('UNAVAILABLE', '호출을 기록하지 못했습니다. 잠시 후 다시 시도하세요.', {}, 1);
    throw error;
  }
}

/**
 * The context of one run: a class, so its `signal` getter lives on the prototype (an object
 * literal with a getter is rebuilt through the runtime's slow path on every call).
 */
class RunContext implements OperationContext {
  readonly account: Account;
  readonly logger: Logger;
  readonly requestId: string;
  readonly workspace: string | undefined;
  /** Every charge of the run, the operation's own first. */
  readonly leases: QuotaLease[] = [];

  constructor(
    private readonly quota: Quota,
    private readonly caller: Caller,
  ) {
    this.account = caller.account;
    this.logger = caller.logger;
    this.requestId = caller.requestId;
    this.workspace = caller.workspace;
  }

  // Read when the operation asks: a door may make the signal only then (api/operation-door.ts).
  get signal(): AbortSignal | undefined {
    return this.caller.signal;
  }

  ownCall(): QuotaLease {
    return this.leases[0]!;
  }

  async charge(api: ApiId): Promise<QuotaLease> {
    const lease = await this.quota.reserve(this.account.id, api);
    this.leases.push(lease);
    return lease;
  }
}

async function refund(lease: QuotaLease, logger: Logger): Promise<void> {
  await lease.refund().catch((error: unknown) => logger.error({ err: error, api: lease.api }, 'quota refund failed'));
}

function snapshot(state: QuotaState): QuotaState {
  return { api: state.api, remaining: state.remaining, monthlyQuota: state.monthlyQuota, renewsAt: state.renewsAt };
}
