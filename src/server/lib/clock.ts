/**
 * The one source of time for services (DESIGN rule 13). Tests move it to run multi-day flows in seconds.
 */
let offsetMs = 0;

export function now(): Date {
  return new Date(Date.now() + offsetMs);
}

/** Test helper: shift the clock forward by `ms`. */
export function advanceClock(ms: number): void {
  offsetMs += ms;
}

export function resetClock(): void {
  offsetMs = 0;
}

/** The first instant of the month `at` falls in (UTC): where the plans' per-month allowances start. */
export function startOfUtcMonth(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

/** The first instant of the month after `at`'s (UTC): when a monthly allowance renews. */
export function startOfNextUtcMonth(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}
