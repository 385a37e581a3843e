export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
/** The fake AI provider the app is pointed at in the browser suite. */
export const E2E_AI_PORT = Number(process.env.E2E_AI_PORT ?? E2E_PORT + 1);
/** An SMTP server with a self-signed certificate (implicit TLS), for "Trust this certificate". */
export const E2E_TLS_SMTP_PORT = Number(process.env.E2E_TLS_SMTP_PORT ?? E2E_PORT + 2);
/** The demo accounts' password in the browser suite (the app prints generated ones otherwise). */
export const E2E_DEMO_PASSWORD = 'Baobab-e2e-2026';
export const DEMO = {
  user: 'demo@tambari.test',
  superAdmin: 'admin@tambari.test',
  dataEntry: 'dataentry@tambari.test',
} as const;
