// A worker process: job handlers and cron schedules, no HTTP. Run as many as you like against one
// PostgreSQL; pg-boss's SKIP LOCKED shares the jobs between them.
import { openDatabase } from '../server/db/client';
import { EnvError, parseEnv } from '../server/env';
import { paystackFromEnv } from '../server/features/payments/paystack.client';
import { seedPricingPlans } from '../server/features/plans/plans.service';
import { getSystemMailIdentity } from '../server/features/platform-settings/platform-settings.service';
import { resealSenderSecrets } from '../server/features/sender-accounts/reseal-secrets';
import { startQueue } from '../server/jobs/queue';
import { secureDataDirOrWarn } from '../server/lib/data-dir';
import { closeOnSignals } from '../server/lib/lifecycle';
import { createLogSink } from '../server/lib/log-sink';
import { createProcessLogger } from '../server/lib/logger';
import { createSystemMailer } from '../server/lib/mailer';
import { resolveSecrets } from '../server/lib/secrets';
import { seedLibraryTemplates } from '../server/seed/templates/index';
import { registerWorkers } from './workers';

try {
  const env = parseEnv();
  // Import files are read and removed under DATA_DIR: owner-only, like the web process.
  secureDataDirOrWarn(env.DATA_DIR);
  if (!env.DATABASE_URL) {
    process.stderr.write('start:worker needs DATABASE_URL; for the embedded database run `npm start`.\n');
    process.exit(1);
  }
  // The worker's lines go to the log table too (Logs screen), once the database is open.
  const logSink = createLogSink({ process: 'worker' });
  const log = createProcessLogger(env, logSink, 'worker');
  const database = await openDatabase({ url: env.DATABASE_URL, poolSize: 5 });
  await database.migrate();
  logSink.attach(database.db);
  const secrets = resolveSecrets(env);
  // After an ENCRYPTION_KEY rotation: stored mailbox passwords move to the new key (as the web process does).
  await resealSenderSecrets({ db: database.db, secrets, log });
  await seedPricingPlans({ db: database.db });
  await seedLibraryTemplates({ db: database.db });
  const queue = await startQueue({ database, url: env.DATABASE_URL, runsWorkers: true });
  // Without SMTP_URL, system mail goes to the development mailbox the web process runs.
  const mailer = createSystemMailer({
    smtpUrl: env.SMTP_URL ?? `smtp://127.0.0.1:${env.DEV_MAILBOX_PORT}?ignoreTLS=true`,
    from: env.SMTP_FROM,
    identity: () => getSystemMailIdentity({ db: database.db }),
    log,
  });
  const workers = await registerWorkers(
    {
      db: database.db,
      database,
      queue,
      env,
      mailer,
      paystack: paystackFromEnv(env),
      secrets,
      // The development mailbox runs in the web process (DEV_MAILBOX_PORT), not here.
      devMailbox: null,
    },
    log,
  );
  log.info('worker started');
  closeOnSignals(async () => {
    // IDLE connections first: their leases are given back while the database is still open.
    await workers.closeIdle();
    await queue.stop({ graceful: true, timeout: 10_000 });
    workers.close();
    mailer.close();
    await logSink.close();
    await database.close();
  }, log);
} catch (error) {
  process.stderr.write(
    `${error instanceof EnvError ? error.message : String((error as Error)?.stack ?? error)}\n`,
  );
  process.exit(1);
}
