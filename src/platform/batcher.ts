/**
 * Gathers the requests made while the event loop works through one round of I/O and hands
 * them to `flush` together: one database statement for many calls. At most `maxInFlight`
 * flushes run at a time; what arrives meanwhile waits for the next, so under load a batch holds
 * everything that arrived during a round trip (group commit).
 */
export class Batcher<Item, Result> {
  private queue: { item: Item; resolve(result: Result): void; reject(error: unknown): void }[] = [];
  private running = 0;
  private scheduled = false;

  /** `flush` returns one result per item, in order. */
  constructor(
    private readonly flush: (items: Item[]) => Promise<Result[]>,
    /** Statements of this kind running at once: more keeps a slow round trip from idling the rest. */
    private readonly maxInFlight = 1,
  ) {}

  add(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.running >= this.maxInFlight || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.run();
    });
  }

  private async run(): Promise<void> {
    const batch = this.queue;
    if (batch.length === 0) return;
    this.queue = [];
    this.running++;
    try {
      const results = await this.flush(batch.map((entry) => entry.item));
      batch.forEach((entry, i) => entry.resolve(results[i]!));
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    } finally {
      this.running--;
      if (this.queue.length > 0) this.schedule();
    }
  }
}
