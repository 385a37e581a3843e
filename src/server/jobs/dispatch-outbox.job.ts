import { z } from 'zod';

/**
 * Drains the outbox (src/server/features/sending/dispatch.ts). Sent on enqueue and when a deferred
 * message comes due; the every-minute schedule is the safety net that picks up everything else.
 */
export const dispatchOutboxJob = {
  name: 'dispatch-outbox',
  payload: z.object({}),
  cron: '* * * * *',
  /** A drain gives the worker back after this long, so a long queue does not hold one job forever. */
  maxMs: 50_000,
  /**
   * A drain with nothing due stays while something comes due within this time (an account's random gap
   * between sends), so short gaps are kept to the second rather than to the next wake.
   */
  waitForDueMs: 30_000,
} as const;
