// A worker process: job handlers and cron schedules, no HTTP. Run as many as you like against one
// PostgreSQL; pg-boss's SKIP LOCKED shares the jobs between them.
import pino from 'pino';
import { openDatabase } from '../server/db/client';
import { EnvError, parseEnv } from '../server/env';
import { startQueue } from '../server/jobs/queue';
import { closeOnSignals } from '../server/lib/lifecycle';
import { registerWorkers } from './workers';

try {
  const env = parseEnv();
  if (!env.DATABASE_URL) {
    process.stderr.write('start:worker needs DATABASE_URL; for the embedded database run `npm start`.\n');
    process.exit(1);
  }
  const log = pino({ level: env.LOG_LEVEL, base: { process: 'worker' } });
  const database = await openDatabase({ url: env.DATABASE_URL, poolSize: 5 });
  await database.migrate();
  const queue = await startQueue({ database, url: env.DATABASE_URL, runsWorkers: true });
  await registerWorkers({ db: database.db, queue }, log);
  log.info('worker started');
  closeOnSignals(async () => {
    await queue.stop({ graceful: true, timeout: 10_000 });
    await database.close();
  }, log);
} catch (error) {
  process.stderr.write(
    `${error instanceof EnvError ? error.message : String((error as Error)?.stack ?? error)}\n`,
  );
  process.exit(1);
}
