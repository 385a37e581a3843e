// The web process: API, tracking routes and the built client. Workers run in src/worker/main.ts
// (separately, with DATABASE_URL) or in the same process in embedded mode (src/main.ts).
import { buildApp } from './app';
import { EnvError, parseEnv } from './env';
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
  closeOnSignals(() => app.close(), app.log);
  await app.listen({ host: env.HOST, port: env.PORT });
} catch (error) {
  process.stderr.write(
    `${error instanceof EnvError ? error.message : String((error as Error)?.stack ?? error)}\n`,
  );
  process.exit(1);
}
