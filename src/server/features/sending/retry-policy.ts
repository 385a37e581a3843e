/*
 * How often and how patiently a message is tried again, and the notes a retried message carries. One
 * place for the dispatcher, the outcome recorder and the recovery of dead workers' leases.
 */

/** Attempts before a temporary failure (or a message that keeps failing to dispatch) becomes final. */
export const MAX_SEND_ATTEMPTS = 5;
/** Wait before attempt n+1 after a temporary failure of attempt n (1-based). */
export const RETRY_BACKOFF_MS = [60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000];

/** The wait before the next try after `attempts` tries (1-based). */
export function retryBackoffMs(attempts: number): number {
  return RETRY_BACKOFF_MS[Math.min(Math.max(attempts, 1), RETRY_BACKOFF_MS.length) - 1]!;
}

export const REDELIVERY_NOTE = 'The worker stopped during delivery; sent again with the same Message-ID';
/** On the "sent" event of a message sent again after a dead worker: the contact may have two copies. */
export const REDELIVERED_DETAIL =
  'Sent again after a worker stopped while delivering it: the contact may have received it twice (same Message-ID, same mailbox)';
export const ABANDONED_NOTE = 'A worker stopped while handling this message';
