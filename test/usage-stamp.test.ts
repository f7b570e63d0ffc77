import { describe, expect, it } from 'vitest';
import { createUsageStamp, STAMP_RESOLUTION_MS } from '../src/platform/usage-stamp.js';

describe('a usage stamp (last_used_at, last_seen_at)', () => {
  it('writes at most once per minute per id, and a failed write fails nobody', async () => {
    let now = new Date('2026-11-28T00:00:00Z');
    const writes: Array<[number, string]> = [];
    const stamp = createUsageStamp(
      async (id, at) => {
        writes.push([id, at.toISOString()]);
        if (id === 3) throw new Error('database away');
      },
      () => now,
    );
    stamp(1);
    stamp(1);
    stamp(2);
    stamp(3);
    now = new Date(now.getTime() + STAMP_RESOLUTION_MS - 1);
    stamp(1);
    now = new Date(now.getTime() + 1);
    stamp(1);
    await Promise.resolve();
    expect(writes).toEqual([
      [1, '2026-11-28T00:00:00.000Z'],
      [2, '2026-11-28T00:00:00.000Z'],
      [3, '2026-11-28T00:00:00.000Z'],
      [1, '2026-11-28T00:01:00.000Z'],
    ]);
  });
});
