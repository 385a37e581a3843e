import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      '@shared': fileURLToPath(new URL('./src/shared', import.meta.url)),
      '@': fileURLToPath(new URL('./src/web', import.meta.url)),
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'tests/**/*.test.ts'],
    exclude: ['tests/e2e/**', 'node_modules/**'],
    globalSetup: ['tests/setup/global-setup.ts'],
    // The pre-launch check would ask an installed SpamAssassin (seconds a message); tests that want it
    // pass its programs explicitly (spamassassin.test.ts), the rest score with the built-in rules.
    env: { SPAMASSASSIN: 'off' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default (cores − 1) is a single worker on the 2-core CI machines; the suite spends much of
    // its time waiting on the database and SMTP sockets, so two files at a time almost halve its length.
    maxWorkers: 2,
  },
});
