import type { FastifyBaseLogger } from 'fastify';

/** SIGINT/SIGTERM close the app (in-flight requests finish, jobs stop, database closes); a second signal forces exit. */
export function closeOnSignals(close: () => Promise<void>, log: FastifyBaseLogger): void {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) process.exit(1);
    closing = true;
    log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 15_000);
    timer.unref();
    close()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
