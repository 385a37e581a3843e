/**
 * One flush loop that several callers can share: items added while a flush runs wait for the next one,
 * so under load each flush writes many rows in one statement, and when idle an item is written at once.
 * Shared, the callers' items go in the same statements: fewer, larger writes (each statement has a fixed
 * cost, its triggers' statements included, that a larger group spreads over more rows).
 */
export interface SharedGroupCommit<T> {
  /** Settles once the item's flush ended: with null, or with what that flush threw (never rejects). */
  submit(item: T): Promise<{ error: unknown } | null>;
}

export function sharedGroupCommit<T>(flush: (items: T[]) => Promise<void>): SharedGroupCommit<T> {
  let pending: { item: T; settle: (outcome: { error: unknown } | null) => void }[] = [];
  let running = false;
  const pump = async () => {
    running = true;
    while (pending.length > 0) {
      const group = pending;
      pending = [];
      let outcome: { error: unknown } | null = null;
      try {
        await flush(group.map((g) => g.item));
      } catch (error) {
        outcome = { error };
      }
      for (const g of group) g.settle(outcome);
    }
    running = false;
  };
  return {
    submit(item: T) {
      return new Promise((settle) => {
        pending.push({ item, settle });
        if (!running) void pump();
      });
    },
  };
}

/**
 * Group commit for one caller, through its own flush loop or a shared one. `drain` waits for everything
 * it added so far, answers how many were written, and rethrows the first failed flush among its items.
 */
export function groupCommit<T>(through: ((items: T[]) => Promise<void>) | SharedGroupCommit<T>) {
  const shared = typeof through === 'function' ? sharedGroupCommit(through) : through;
  const outcomes: Promise<{ error: unknown } | null>[] = [];
  return {
    add(item: T) {
      outcomes.push(shared.submit(item));
    },
    async drain(): Promise<number> {
      const settled = await Promise.all(outcomes);
      const failed = settled.find((outcome) => outcome !== null);
      if (failed) throw failed.error;
      return settled.length;
    },
  };
}
