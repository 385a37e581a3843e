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
