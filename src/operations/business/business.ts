import type { Operation } from '../../platform/execute.js';
import type { BusinessChecks, BusinessStatus, BusinessValidation } from './business-checks.js';
import { businessStatusSchema, businessValidateSchema } from './business.schema.js';

export interface BusinessDeps {
  checks: BusinessChecks;
}

/**
 * `POST /api/v1/business/status`: each business's status at the National Tax Service
 * (active, suspended, closed, unknown). Each distinct number costs one `ocr-idcard` call: the
 * first is charged by the executor, the others here; all are given back when the NTS fails.
 */
export function createBusinessStatusOperation(
  deps: BusinessDeps,
): Operation<typeof businessStatusSchema, { businesses: BusinessStatus[] }> {
  return {
    api: 'ocr-idcard',
    schema: businessStatusSchema,
    async run(ctx, input) {
      const numbers = [...new Set(typeof input.b_no === 'string' ? [input.b_no] : input.b_no)];
      for (let extra = 1; extra < numbers.length; extra++) await ctx.charge('ocr-idcard');
      return { businesses: await deps.checks.status(numbers, ctx.logger, ctx.signal) };
    },
  };
}

/** `POST /api/v1/business/validate`: whether the number, opening date and representative (and any other field sent) agree with the NTS. */
export function createBusinessValidateOperation(deps: BusinessDeps): Operation<typeof businessValidateSchema, BusinessValidation> {
  return {
    api: 'ocr-idcard',
    schema: businessValidateSchema,
    run: (ctx, input) => deps.checks.validate(input, ctx.logger, ctx.signal),
  };
}
