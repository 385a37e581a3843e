import { defineConfig } from '@playwright/test';
import {
  E2E_AI_PORT,
  E2E_BASE_URL,
  E2E_DEMO_PASSWORD,
  E2E_PORT,
  E2E_TLS_SMTP_PORT,
} from './tests/e2e/support/env';

const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? '.e2e-data';

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: E2E_BASE_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
      ],
    },
  },
  webServer: [
    {
      // A fake OpenAI-compatible provider, so "Write with AI" runs end to end without the internet.
      command: 'npx tsx tests/e2e/support/fake-ai-server.ts',
      port: E2E_AI_PORT,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      // A customer's own mail server: implicit TLS with a self-signed certificate (tests/fixtures/tls).
      command: 'npx tsx tests/e2e/support/tls-smtp-server.ts',
      port: E2E_TLS_SMTP_PORT,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      // The built client served by the real server on a fresh embedded database.
      // E2E_DATA_DIR lets parallel runs (one per engineer) keep their own embedded database.
      command: `rm -rf ${JSON.stringify(E2E_DATA_DIR)} && npx tsx src/main.ts`,
      url: `${E2E_BASE_URL}/api/health`,
      // Generous: a loaded machine takes minutes to seed the embedded database; CI takes about 30 s.
      timeout: 300_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        NODE_ENV: 'test',
        PORT: String(E2E_PORT),
        HOST: '127.0.0.1',
        APP_URL: E2E_BASE_URL,
        DATA_DIR: E2E_DATA_DIR,
        DEMO_PASSWORD: E2E_DEMO_PASSWORD,
        DEV_MAILBOX_PORT: '0',
        AUTH_RATE_LIMIT_MAX: '1000',
        LOG_LEVEL: 'warn',
        // The Logs screen's table keeps request lines (stdout stays quiet).
        LOG_TABLE_LEVEL: 'info',
        AI_BASE_URL: `http://127.0.0.1:${E2E_AI_PORT}/v1`,
        AI_API_KEY: 'e2e-fake-key',
        AI_MODEL: 'fake-model',
      },
    },
  ],
});
