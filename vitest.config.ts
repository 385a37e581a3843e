import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const INCLUDED = ['src/**/*.test.ts', 'src/**/*.test.tsx', 'tests/**/*.test.ts'];
// Named in each project: the root's global setup runs once for the root alone and projects would share it.
const GLOBAL_SETUP = ['tests/setup/global-setup.ts'];
const EXCLUDED = ['tests/e2e/**', 'node_modules/**'];
/** Tests that read figures across all accounts (see `projects` below). */
const PLATFORM_WIDE = [
  'src/server/features/admin-analytics/admin-analytics.test.ts',
  'src/server/features/site-traffic/site-traffic.test.ts',
];

export default defineConfig({
  resolve: {
    alias: {
      '@shared': fileURLToPath(new URL('./src/shared', import.meta.url)),
      '@server': fileURLToPath(new URL('./src/server', import.meta.url)),
      '@tests': fileURLToPath(new URL('./tests', import.meta.url)),
      '@': fileURLToPath(new URL('./src/web', import.meta.url)),
    },
  },
  test: {
    exclude: EXCLUDED,
    // The pre-launch check would ask an installed SpamAssassin (seconds a message); tests that want it
    // pass its programs explicitly (spamassassin.test.ts), the rest score with the built-in rules.
    env: { SPAMASSASSIN: 'off' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default (cores − 1) is a single worker on the 2-core CI machines; the suite spends much of
    // its time waiting on the database and SMTP sockets, so two files at a time almost halve its length.
    maxWorkers: 2,
    // On PostgreSQL all files of a project share one database (global-setup.ts makes one per project). The
    // admin's platform-wide figures count every account, view and event made meanwhile, so each such file
    // is a project of its own, with a database no other file writes to.
    projects: [
      {
        extends: true,
        test: {
          name: 'app',
          include: INCLUDED,
          exclude: [...EXCLUDED, ...PLATFORM_WIDE],
          globalSetup: GLOBAL_SETUP,
        },
      },
      ...PLATFORM_WIDE.map((file) => ({
        extends: true as const,
        test: { name: path.basename(file, '.test.ts'), include: [file], globalSetup: GLOBAL_SETUP },
      })),
    ],
  },
});
