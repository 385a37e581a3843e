// The web process: API, tracking routes and the built client. Workers run in src/worker/main.ts
// (separately, with DATABASE_URL) or in the same process in embedded mode (src/main.ts).
import { buildApp } from './app';
import { EnvError, parseEnv } from './env';
import { evaluateAlertRules } from './features/admin-operations/alerting.service';
import { secureDataDirOrWarn } from './lib/data-dir';
import { closeOnSignals } from './lib/lifecycle';
import { resolveSecrets } from './lib/secrets';

try {
  const env = parseEnv();
  // Uploads and newsletter images live under DATA_DIR: owner-only (umask 077, the folder tightened once).
  secureDataDirOrWarn(env.DATA_DIR);
  if (!env.DATABASE_URL) {
    process.stderr.write('start:web needs DATABASE_URL; for the embedded database run `npm start`.\n');
    process.exit(1);
  }
  const app = await buildApp({ env, secrets: resolveSecrets(env), runsWorkers: false });
  // The workers run the alert rules each minute, but cannot report their own absence: the web process
  // checks that one rule itself (several web processes open the alert once: see evaluateAlertRules).
  const workerWatch = setInterval(() => {
    const { db, mailer } = app.services;
    evaluateAlertRules({ db, mailer, appUrl: env.APP_URL, log: app.log, only: ['worker_not_seen'] }).catch(
      (error: unknown) => app.log.error({ err: error }, 'worker heartbeat check failed'),
    );
  }, 60_000);
  workerWatch.unref();
  closeOnSignals(() => {
    clearInterval(workerWatch);
    return app.close();
  }, app.log);
  await app.listen({ host: env.HOST, port: env.PORT });
} catch (error) {
  process.stderr.write(
    `${error instanceof EnvError ? error.message : String((error as Error)?.stack ?? error)}\n`,
  );
  process.exit(1);
}
