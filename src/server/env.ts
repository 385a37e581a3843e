import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/**
 * The environment, parsed once at boot. A bad value stops the process with a message naming the variable.
 * Only these values are read anywhere in server code.
 */
export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().default('0.0.0.0'),
    PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
    APP_URL: z.url().optional(),
    TRUSTED_ORIGINS: optionalString,
    DATABASE_URL: optionalString,
    DATA_DIR: z.string().default('./data'),
    SESSION_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    ENCRYPTION_KEY: optionalString.pipe(
      z
        .string()
        .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (32 bytes)')
        .optional(),
    ),
    /** Keys rotated out, comma-separated: still accepted to open secrets sealed with them (lib/crypto.ts). */
    ENCRYPTION_KEYS_PREVIOUS: optionalString.pipe(
      z
        .string()
        .regex(
          /^[0-9a-fA-F]{64}(\s*,\s*[0-9a-fA-F]{64})*$/,
          'must be 64-hex-character keys separated by commas',
        )
        .optional(),
    ),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Lines kept in the searchable log table (Logs screen); unset: the same as LOG_LEVEL. */
    LOG_TABLE_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
    /** The log table's bounds, enforced by the prune-app-logs job: newest rows kept, and days kept. */
    LOG_TABLE_MAX_ROWS: z.coerce.number().int().min(1_000).default(500_000),
    LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(365).default(14),
    /**
     * Whole months of email_events kept besides the current one; older months' partitions are dropped
     * daily (the analytics roll-ups keep their figures). 0, the default, keeps every event.
     */
    EVENT_RETENTION_MONTHS: z.coerce.number().int().min(0).max(600).default(0),
    /**
     * Whole months of archived messages (outbox_archive: finished over a week ago) kept besides the current
     * one; older months' partitions are dropped hourly, and their tracking and unsubscribe links with them.
     * 0, the default, keeps every message.
     */
    OUTBOX_RETENTION_MONTHS: z.coerce.number().int().min(0).max(600).default(0),
    /** System mail (password resets, notices). Unset: the built-in development mailbox receives it. */
    SMTP_URL: optionalString,
    SMTP_FROM: z.string().default('Tambari <no-reply@tambari.test>'),
    DEV_MAILBOX_PORT: z.coerce.number().int().min(0).max(65_535).default(2525),
    DEMO_PASSWORD: optionalString,
    SEED_DEMO: bool.optional(),
    AUTH_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(20),
    AUTH_RATE_LIMIT_WINDOW_MINUTES: z.coerce.number().int().min(1).default(15),
    /** Contact-form messages per client address per hour (the public /contact page). */
    CONTACT_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(5),
    /** Lead searches (and counts, adds to lists) per client per minute. */
    LEADS_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(120),
    /**
     * How many proxies in front of the app may set X-Forwarded-For (e.g. 1 behind one load balancer).
     * 0, the default, trusts none: a server reached directly must not let clients choose their own address,
     * which rate limits, session records and the currency geo lookup all read.
     */
    TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
    BODY_LIMIT_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .default(256 * 1024),
    WEB_DIST_DIR: z.string().default('./dist/web'),
    /** Largest CSV a user may upload for import (bytes). Uploads live under DATA_DIR/uploads. */
    IMPORT_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .default(50 * 1024 * 1024),
    /** Paystack (payments in NGN). Unset outside production: `npm start` runs a fake Paystack on loopback. */
    PAYSTACK_SECRET_KEY: optionalString,
    PAYSTACK_PUBLIC_KEY: optionalString,
    PAYSTACK_BASE_URL: z.url().default('https://api.paystack.co'),
    PAYSTACK_INLINE_SCRIPT_URL: z.url().default('https://js.paystack.co/v2/inline.js'),
    /** A public rate file keyed on NGN (display currencies); cached 1 h, fixed fallback rates on failure. */
    CURRENCY_RATES_URL: z
      .url()
      .default('https://cdn.jsdelivr.net/npm/@fawazahmed0/currency-api@latest/v1/currencies/ngn.json'),
    /**
     * Which addresses a user's SMTP/IMAP host may resolve to. `public` (production default) refuses private,
     * loopback, link-local and metadata addresses; `loopback` (embedded default) also allows 127.0.0.0/8
     * and ::1, for the development mailbox; `private` allows RFC 1918 networks too (self-hosted relays).
     */
    SENDER_NETWORK: z.enum(['public', 'loopback', 'private']).optional(),
    /** Which addresses the scraper may fetch pages from (the same ranges as SENDER_NETWORK). */
    SCRAPER_NETWORK: z.enum(['public', 'loopback', 'private']).optional(),
    /**
     * DNS servers for the sender domain checks (SPF, DKIM, DMARC, MX), comma separated `ip` or `ip:port`.
     * Unset: the system's resolvers.
     */
    SENDER_DNS_SERVERS: optionalString,
    /**
     * The name we give in EHLO when we connect to users' SMTP servers (it becomes the `Received: from` of
     * every message). Unset: the sender account's own email domain. A host name with a dot, or an address
     * literal like [192.0.2.7].
     */
    SMTP_EHLO_NAME: optionalString.pipe(
      z
        .string()
        .toLowerCase()
        .regex(
          /^(?:(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?|\[\d{1,3}(?:\.\d{1,3}){3}\])$/,
          'must be a host name like mail.example.com (with a dot) or an address literal like [192.0.2.7]',
        )
        .optional(),
    ),
    /** Minutes between IMAP polls of each sender account (replies, bounces). */
    IMAP_POLL_MINUTES: z.coerce.number().int().min(1).max(1440).default(5),
    /**
     * IMAP IDLE connections one worker process keeps open (one per sender account, each account held by
     * one worker), so replies are read within seconds; 0 turns IDLE off (polling only).
     */
    IMAP_IDLE_CONNECTIONS: z.coerce.number().int().min(0).max(1000).default(50),
    /** How long a worker owns a claimed message; an expired lease is recovered by another worker. */
    SEND_LEASE_SECONDS: z.coerce.number().int().min(10).max(3600).default(120),
    /** Messages a dispatcher claims at once (and sends concurrently). */
    DISPATCH_BATCH_SIZE: z.coerce.number().int().min(1).max(1000).default(100),
    /**
     * How often buffered opens and clicks are written to the database (they are also written at once
     * when 1,000 wait, and on shutdown). A crash loses at most this much.
     */
    TRACKING_FLUSH_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
    /** Dispatch loops each worker process runs at once (they share the outbox through SKIP LOCKED). */
    DISPATCH_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
    /**
     * AI writing: an OpenAI-compatible provider (`…/v1` base URL, model name, key when it needs one).
     * Unset: the AI buttons explain how to connect one and the AI endpoints answer 503.
     */
    AI_BASE_URL: optionalString.pipe(z.url('must be a URL such as https://api.openai.com/v1').optional()),
    AI_API_KEY: optionalString,
    AI_MODEL: optionalString,
    /** AI writes and rewrites per client per minute (the per-plan daily limit applies on top). */
    AI_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(10),
    /** How long one AI generation may take before it is cut off. */
    AI_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(60),
  })
  .superRefine((env, ctx) => {
    if (env.AI_BASE_URL && !env.AI_MODEL) {
      ctx.addIssue({ code: 'custom', path: ['AI_MODEL'], message: 'is required when AI_BASE_URL is set' });
    }
    if (env.NODE_ENV !== 'production') return;
    for (const key of [
      'SESSION_SECRET',
      'ENCRYPTION_KEY',
      'APP_URL',
      'DATABASE_URL',
      'PAYSTACK_SECRET_KEY',
      'PAYSTACK_PUBLIC_KEY',
    ] as const) {
      if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'is required in production' });
    }
  });

export type Env = z.infer<typeof envSchema> & {
  APP_URL: string;
  SENDER_NETWORK: 'public' | 'loopback' | 'private';
  SCRAPER_NETWORK: 'public' | 'loopback' | 'private';
};

export class EnvError extends Error {}

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map(
      (issue) => `  ${issue.path.join('.') || '(env)'}: ${issue.message}`,
    );
    throw new EnvError(`Invalid environment:\n${lines.join('\n')}`);
  }
  const env = result.data;
  return {
    ...env,
    APP_URL: (env.APP_URL ?? `http://localhost:${env.PORT || 3000}`).replace(/\/$/, ''),
    SENDER_NETWORK: env.SENDER_NETWORK ?? (env.NODE_ENV === 'production' ? 'public' : 'loopback'),
    SCRAPER_NETWORK: env.SCRAPER_NETWORK ?? (env.NODE_ENV === 'production' ? 'public' : 'loopback'),
  };
}
