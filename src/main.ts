// `npm start`: web and worker in one process. Without DATABASE_URL this is the embedded default
// (PGlite under DATA_DIR, demo accounts, the development mailbox) — only one process may open PGlite.
import { buildApp } from './server/app';
import { EnvError, parseEnv } from './server/env';
import { closeOnSignals } from './server/lib/lifecycle';
import { resolveSecrets } from './server/lib/secrets';
import { seedDemoAccounts } from './server/seed/demo-accounts';
import { registerWorkers } from './worker/workers';

try {
  const env = parseEnv();
  const app = await buildApp({ env, secrets: resolveSecrets(env), runsWorkers: true });
  const seedDemo = env.SEED_DEMO ?? !env.DATABASE_URL;
  if (seedDemo) {
    await seedDemoAccounts(app.services, {
      password: env.DEMO_PASSWORD,
      print: (line) => process.stdout.write(`${line}\n`),
    });
  }
  await registerWorkers(app.services, app.log);
  closeOnSignals(() => app.close(), app.log);
  await app.listen({ host: env.HOST, port: env.PORT });
  process.stdout.write(`\nTambari is running at ${env.APP_URL}\n\n`);
} catch (error) {
  process.stderr.write(
    `${error instanceof EnvError ? error.message : String((error as Error)?.stack ?? error)}\n`,
  );
  process.exit(1);
}
