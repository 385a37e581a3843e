// `npm start`: web and worker in one process. Without DATABASE_URL this is the embedded default
// (PGlite under DATA_DIR, demo accounts, the development mailbox) — only one process may open PGlite.
import { buildApp } from './server/app';
import { EnvError, parseEnv } from './server/env';
import { secureDataDirOrWarn } from './server/lib/data-dir';
import { closeOnSignals } from './server/lib/lifecycle';
import { resolveSecrets } from './server/lib/secrets';
import { seedDemoAccounts } from './server/seed/demo-accounts';
import { seedDemoDirectory } from './server/seed/demo-directory';
import { seedDemoList } from './server/seed/demo-list';
import { seedDemoSenderAccount } from './server/seed/demo-sender-account';
import { registerWorkers } from './worker/workers';

try {
  let env = parseEnv();
  // Owner-only files from here on (umask 077), and an older, world-readable DATA_DIR tightened once.
  secureDataDirOrWarn(env.DATA_DIR);
  let closeFakePaystack: (() => Promise<void>) | null = null;
  if (!env.PAYSTACK_SECRET_KEY && env.NODE_ENV !== 'production') {
    // Without Paystack keys the embedded default runs a stand-in Paystack on loopback, so payments work
    // with no account or internet. Loaded only here, never in production.
    const { startFakePaystack } = await import('./server/features/payments/dev-paystack');
    const fake = await startFakePaystack({ webhookUrl: `${env.APP_URL}/api/webhooks/paystack` });
    closeFakePaystack = fake.close;
    env = {
      ...env,
      PAYSTACK_SECRET_KEY: fake.secretKey,
      PAYSTACK_PUBLIC_KEY: fake.publicKey,
      PAYSTACK_BASE_URL: fake.url,
      PAYSTACK_INLINE_SCRIPT_URL: fake.inlineScriptUrl,
    };
    process.stdout.write(`Payments in test mode: fake Paystack at ${fake.url} (no real card is charged).\n`);
  }
  const app = await buildApp({ env, secrets: resolveSecrets(env), runsWorkers: true });
  if (closeFakePaystack) app.addHook('onClose', closeFakePaystack);
  const seedDemo = env.SEED_DEMO ?? !env.DATABASE_URL;
  if (seedDemo) {
    const print = (line: string) => process.stdout.write(`${line}\n`);
    const createdAccounts = await seedDemoAccounts(app.services, { password: env.DEMO_PASSWORD, print });
    await seedDemoSenderAccount(app.services, { print });
    if (createdAccounts > 0) await seedDemoList(app.services, { print });
    // Only the embedded default gets synthetic businesses; a real database is filled by imports, and
    // production never holds sample data (the generator itself refuses there too).
    if (!env.DATABASE_URL && env.NODE_ENV !== 'production') {
      await seedDemoDirectory(app.services.database, { nodeEnv: env.NODE_ENV, print });
    }
  }
  const workers = await registerWorkers(app.services, app.log);
  closeOnSignals(async () => {
    // IDLE connections first: their leases are given back while the database is still open.
    await workers.closeIdle();
    await app.close();
    workers.close();
  }, app.log);
  await app.listen({ host: env.HOST, port: env.PORT });
  process.stdout.write(`\nTambari is running at ${env.APP_URL}\n\n`);
} catch (error) {
  process.stderr.write(
    `${error instanceof EnvError ? error.message : String((error as Error)?.stack ?? error)}\n`,
  );
  process.exit(1);
}
