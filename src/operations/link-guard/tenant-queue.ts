/** What a tenant queue does with one more job. */
export type Enqueued = 'queued' | 'dropped';

export interface TenantQueueOptions {
  /** Jobs waiting per tenant; beyond it new jobs are dropped (and counted). */
  maxPending: number;
  /** Jobs running at once over all tenants. */
  concurrency: number;
}

export interface TenantQueueStats {
  running: number;
  pending: number;
  dropped: number;
}

/**
 * Bounded, fair work queues, one per tenant (a Slack workspace, a Discord server): each tenant
 * runs at most one job at a time and holds at most `maxPending` waiting, and free slots go to
 * tenants in turn. A flood in one workspace fills only its own queue (the rest is dropped),
 * never the memory, and never the slots other tenants' jobs wait for.
 */
export function createTenantQueue(options: TenantQueueOptions) {
  const queues = new Map<string, Array<() => Promise<void>>>();
  /** Tenants with waiting jobs and none running, in the order they get the next slot. */
  const ready: string[] = [];
  const busy = new Set<string>();
  const dropped = new Map<string, number>();
  let running = 0;
  const idleWaiters: Array<() => void> = [];

  function pump(): void {
    while (running < options.concurrency && ready.length > 0) {
      const tenant = ready.shift()!;
      const queue = queues.get(tenant);
      const job = queue?.shift();
      if (!job) continue;
      busy.add(tenant);
      running += 1;
      void job()
        .catch(() => undefined)
        .finally(() => {
          running -= 1;
          busy.delete(tenant);
          if ((queues.get(tenant)?.length ?? 0) > 0) ready.push(tenant);
          else queues.delete(tenant);
          pump();
          if (running === 0 && ready.length === 0) for (const resolve of idleWaiters.splice(0)) resolve();
        });
    }
  }

  return {
    /** Queues `job` for `tenant`; `dropped` when that tenant's queue is full. */
    push(tenant: string, job: () => Promise<void>): Enqueued {
      let queue = queues.get(tenant);
      if (!queue) queues.set(tenant, (queue = []));
      if (queue.length >= options.maxPending) {
        dropped.set(tenant, (dropped.get(tenant) ?? 0) + 1);
        return 'dropped';
      }
      queue.push(job);
      if (queue.length === 1 && !busy.has(tenant)) ready.push(tenant);
      pump();
      return 'queued';
    },

    stats(tenant: string): TenantQueueStats {
      return { running: busy.has(tenant) ? 1 : 0, pending: queues.get(tenant)?.length ?? 0, dropped: dropped.get(tenant) ?? 0 };
    },

    /** Jobs running and waiting over all tenants (the metrics' queue depth). */
    depth(): number {
      let pending = 0;
      for (const queue of queues.values()) pending += queue.length;
      return running + pending;
    },

    /** Takes the dropped count of a tenant (for one log line per burst). */
    takeDropped(tenant: string): number {
      const n = dropped.get(tenant) ?? 0;
      dropped.delete(tenant);
      return n;
    },

    /** Resolves when nothing runs or waits (tests; shutdown). */
    idle(): Promise<void> {
      if (running === 0 && ready.length === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
  };
}

export type TenantQueue = ReturnType<typeof createTenantQueue>;
