/**
 * One flush loop that several callers can share, with one write in flight at a time. Shared, the callers'
 * items go in the same statements: fewer, larger writes (each statement has a fixed cost, its triggers'
 * statements included, that a larger group spreads over more rows).
 *
 * Without a gather rule, an item is written as soon as no write runs: the items added while one runs go
 * together in the next. With one, items wait for others to join them, and a group is written as soon as
 * - it holds `maxItems`, or
 * - a caller waits for its items (`hurry`, which `groupCommit`'s drain calls): nothing of that caller will
 *   join anymore, and making it wait for a timer would hold up its next step, or
 * - its oldest item has waited `maxWaitMs`, which bounds how long an item stays unwritten.
 */
export interface GatherRule {
  /** The most items one write carries; a group this large is written at once. */
  maxItems: number;
  /** The longest an item waits for others to join it before its group is written anyway. */
  maxWaitMs: number;
}

export interface SharedGroupCommit<T> {
  /** Settles once the item's flush ended: with null, or with what that flush threw (never rejects). */
  submit(item: T): Promise<{ error: unknown } | null>;
  /** How many items were submitted so far: the sequence number of the last one. */
  readonly submitted: number;
  /**
   * Someone waits for the items submitted up to `through` (all so far by default): write them without
   * waiting for more to join them.
   */
  hurry(through?: number): void;
}

const AT_ONCE: GatherRule = { maxItems: Number.POSITIVE_INFINITY, maxWaitMs: 0 };

export function sharedGroupCommit<T>(
  flush: (items: T[]) => Promise<void>,
  rule: GatherRule = AT_ONCE,
): SharedGroupCommit<T> {
  type Pending = { item: T; seq: number; at: number; settle: (outcome: { error: unknown } | null) => void };
  const pending: Pending[] = [];
  let submitted = 0;
  /** Items up to this sequence number have a caller waiting for them. */
  let hurriedThrough = 0;
  let running = false;
  let timer: NodeJS.Timeout | null = null;

  const msUntilDue = (): number => {
    const oldest = pending[0];
    if (!oldest) return Number.POSITIVE_INFINITY;
    if (pending.length >= rule.maxItems || oldest.seq <= hurriedThrough) return 0;
    return Math.max(0, oldest.at + rule.maxWaitMs - Date.now());
  };
  const schedule = () => {
    if (running) return; // the write in flight looks again when it ends
    const wait = msUntilDue();
    if (wait === Number.POSITIVE_INFINITY) return;
    if (wait <= 0) {
      if (timer) clearTimeout(timer);
      timer = null;
      void pump();
    } else if (!timer) {
      timer = setTimeout(() => {
        timer = null;
        schedule();
      }, wait);
    }
  };
  const pump = async () => {
    running = true;
    while (msUntilDue() <= 0) {
      const group = pending.splice(0, rule.maxItems);
      let outcome: { error: unknown } | null = null;
      try {
        await flush(group.map((g) => g.item));
      } catch (error) {
        outcome = { error };
      }
      for (const g of group) g.settle(outcome);
    }
    running = false;
    schedule();
  };
  return {
    submit(item: T) {
      return new Promise((settle) => {
        pending.push({ item, seq: ++submitted, at: Date.now(), settle });
        schedule();
      });
    },
    get submitted() {
      return submitted;
    },
    hurry(through = submitted) {
      hurriedThrough = Math.max(hurriedThrough, through);
      schedule();
    },
  };
}

/**
 * Group commit for one caller, through its own flush loop or a shared one. `drain` waits for everything
 * it added so far (asking for it to be written now), answers how many were written, and rethrows the
 * first failed flush among its items.
 */
export function groupCommit<T>(through: ((items: T[]) => Promise<void>) | SharedGroupCommit<T>) {
  const shared = typeof through === 'function' ? sharedGroupCommit(through) : through;
  const outcomes: Promise<{ error: unknown } | null>[] = [];
  let last = 0;
  return {
    add(item: T) {
      outcomes.push(shared.submit(item));
      last = shared.submitted;
    },
    async drain(): Promise<number> {
      // Only this caller's items are hurried: others' that came later still wait for company.
      if (outcomes.length > 0) shared.hurry(last);
      const settled = await Promise.all(outcomes);
      const failed = settled.find((outcome) => outcome !== null);
      if (failed) throw failed.error;
      return settled.length;
    },
  };
}
