import type { Logger } from '../../src/logger.js';
import type { ApiId } from '../../src/platform/catalog.js';
import type { OperationContext } from '../../src/platform/execute.js';

export interface TestContext extends OperationContext {
  /** The APIs `charge` was called with, in order. */
  charged: ApiId[];
}

/**
 * A context for running an operation directly (no door, no database counter): `charge`
 * records the API and answers a counter with calls left, as a fresh subscription would.
 */
export function operationContext(account: { id: number; email?: string }, logger: Logger, remaining = 99): TestContext {
  const charged: ApiId[] = [];
  return {
    account: { id: account.id, email: account.email ?? `account-${account.id}@example.com` },
    logger,
    requestId: 'direct',
    charged,
    async charge(api) {
      charged.push(api);
      return { api, remaining, monthlyQuota: 100, renewsAt: new Date('2100-01-01T00:00:00Z') };
    },
  };
}
