import type { Operation } from '../../platform/execute.js';
import type { CreatedWatch, WatchService } from './watch-service.js';
import { watchCreateSchema } from './watch.schema.js';

/**
 * `POST /delivery/watch` as an operation: creating a watch costs one `delivery-tracking` call
 * (the baseline lookup), charged and refunded by the executor like every other call.
 */
export function createWatchOperation(watches: Pick<WatchService, 'create'>): Operation<typeof watchCreateSchema, CreatedWatch> {
  return {
    api: 'delivery-tracking',
    schema: watchCreateSchema,
    run: (ctx, input) => watches.create(ctx.account, input, { logger: ctx.logger }),
  };
}
