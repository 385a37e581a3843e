/**
 * Group commit: items added while a flush runs wait for the next one, so under load each flush writes
 * many rows in one statement, and when idle an item is written at once. `drain` waits for everything
 * added so far, answers how many were written, and rethrows the first failed flush.
 */
export function groupCommit<T>(flush: (items: T[]) => Promise<void>) {
  let pending: T[] = [];
  let running: Promise<void> | null = null;
  let written = 0;
  let failure: unknown = null;
  const pump = async () => {
    while (pending.length > 0) {
      const group = pending;
      pending = [];
      try {
        await flush(group);
        written += group.length;
      } catch (error) {
        failure ??= error;
      }
    }
    running = null;
  };
  return {
    add(item: T) {
      pending.push(item);
      running ??= pump();
    },
    async drain(): Promise<number> {
      while (running) await running;
      if (failure) throw failure;
      return written;
    },
  };
}
