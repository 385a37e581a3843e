import type { Database } from '@server/db/client';
import { describe, expect, it } from 'vitest';
import { deliveringMarker } from './deliver';
import type { DispatchContext } from './dispatch';

/** A database whose writes are counted, the first one held until released; every row is held. */
function countingDatabase() {
  const writes: number[] = [];
  let release: () => void = () => {};
  const db = {
    async execute() {
      writes.push(writes.length);
      if (writes.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return { rows: [] };
    },
  } as unknown as Database;
  return { db, writes, release: () => release() };
}

describe('deliveringMarker', () => {
  it("puts the marks of one process's concurrent batches in the same writes", async () => {
    const { db, writes, release } = countingDatabase();
    const ctx = (): Pick<DispatchContext, 'db' | 'workerId'> => ({ db, workerId: 'worker-1' });
    const firstBatch = deliveringMarker(ctx());
    const secondBatch = deliveringMarker(ctx());
    const marks = [firstBatch.mark('a1')];
    await Promise.resolve();
    marks.push(firstBatch.mark('a2'), secondBatch.mark('b1'));
    release();
    await Promise.all(marks);
    // The first write, then one for both batches' marks that arrived while it ran.
    expect(writes).toHaveLength(2);
  });

  it('keeps the marks of different workers apart', () => {
    const { db } = countingDatabase();
    expect(deliveringMarker({ db, workerId: 'worker-1' })).not.toBe(
      deliveringMarker({ db, workerId: 'worker-2' }),
    );
  });
});
