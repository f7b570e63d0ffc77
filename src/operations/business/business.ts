import type { Database } from '../../../db/client.js';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { Operation } from '../../platform/execute.js';
import { createNtsClient } from '../../providers/nts.js';
import type { UpstreamObserver } from '../../providers/upstream-observer.js';
import { createRateLimiter } from '../../platform/rate-limiter.js';
import { createBusinessChecks, type BusinessChecks, type BusinessStatus, type BusinessValidation } from './business-checks.js';
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
      const numbers = [...new Set(input.b_no)];
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

export interface BusinessWiring {
  db: Database;
  config: Pick<Config, 'DATA_GO_KR_SERVICE_KEY' | 'DATA_GO_KR_API_URL'>;
  logger: Logger;
  clock: Clock;
  /** Told of every NTS request (the runtime's metrics). */
  observe?: UpstreamObserver;
}

/** The portal's NTS calls are shared by every instance through the database, at most this many a second. */
const NTS_CALLS_PER_SECOND = 10;

/**
 * The business checks as the runtime builds them: the NTS client behind a rate limit shared
 * through the database (queued up to 5 s, then 429), or off without `DATA_GO_KR_SERVICE_KEY`.
 */
export function createBusiness(wiring: BusinessWiring) {
  const { config, logger } = wiring;
  const limiter = createRateLimiter(wiring.db, {
    bucket: 'nts',
    perSecond: NTS_CALLS_PER_SECOND,
    busy: (seconds) =>
      new AppError(
        'RATE_LIMITED',
        '국세청 조회 요청이 몰려 잠시 기다려야 합니다. 잠시 후 다시 시도하세요. (이 호출은 차감되지 않았습니다.)',
        {},
        seconds,
      ),
  });
  const client = config.DATA_GO_KR_SERVICE_KEY
    ? createNtsClient({
        baseUrl: config.DATA_GO_KR_API_URL,
        serviceKey: config.DATA_GO_KR_SERVICE_KEY,
        logger,
        beforeRequest: () => limiter.acquire(),
        observe: wiring.observe,
      })
    : undefined;
  if (!client) logger.info('business checks off: DATA_GO_KR_SERVICE_KEY is not set (POST /business/* answer 503)');
  const checks = createBusinessChecks({ client, clock: wiring.clock });
  return {
    checks,
    status: createBusinessStatusOperation({ checks }),
    validate: createBusinessValidateOperation({ checks }),
  };
}

export type Business = ReturnType<typeof createBusiness>;
