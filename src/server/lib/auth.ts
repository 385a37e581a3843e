import { createHash } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { MAX_PASSWORD_LENGTH, MESSAGES, MIN_PASSWORD_LENGTH } from '@shared/auth';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError } from 'better-auth/api';
import { and, eq, like } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import { accounts, sessions, users, verifications } from '../db/schema/index';
import { withHashedSessionTokens } from './hashed-session-tokens';
import { CLIENT_IP_HEADER } from './http';

export const SESSION_COOKIE_PREFIX = 'tambari';
/** The session cookie's names: better-auth adds the __Secure- prefix when cookies are secure (production). */
export const SESSION_COOKIE_NAMES = [
  `${SESSION_COOKIE_PREFIX}.session_token`,
  `__Secure-${SESSION_COOKIE_PREFIX}.session_token`,
] as const;
export const RESET_TOKEN_TTL_SECONDS = 30 * 60;
const SESSION_TTL_SECONDS = 60 * 60 * 24 * 30;

/**
 * How a reset token's row is named in `verification`: a SHA-256 of better-auth's identifier
 * (`reset-password:<token>`) under a prefix of its own. The prefix lets us find every link of an account
 * (`value` is the user id); it must not start with `reset-password:`, because better-auth, failing to find
 * a hashed identifier, also looks the plain `reset-password:<token>` up, and a stored hash sent back as a
 * token would then match itself.
 */
export const RESET_TOKEN_STORED_PREFIX = 'reset-password-sha256:';

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

/** Ends every password reset link an account has outstanding (after a reset, a change, a deletion). */
export async function revokePasswordResetLinks({ db, userId }: { db: Database; userId: string }) {
  const deleted = await db
    .delete(verifications)
    .where(
      and(eq(verifications.value, userId), like(verifications.identifier, `${RESET_TOKEN_STORED_PREFIX}%`)),
    )
    .returning({ id: verifications.id });
  return deleted.length;
}

export interface CreateAuthOptions {
  db: Database;
  appUrl: string;
  secret: string;
  secureCookies: boolean;
  trustedOrigins: string[];
  log?: FastifyBaseLogger;
  sendResetPassword: (input: { email: string; firstName: string; token: string }) => Promise<void>;
  /** Runs after a successful password reset, once the account's other reset links are gone. */
  onPasswordReset?: (user: { id: string; email: string }) => Promise<void>;
  /** Runs once an account exists (the app restores what a deleted account with its email left). */
  onUserCreated?: (userId: string) => Promise<void>;
}

/**
 * better-auth does the credential work (argon2id hashes, sessions, reset tokens). It sits behind the
 * product's own routes (/api/login, /api/register, …); its HTTP handler is not mounted, so every call
 * goes through `auth.api.*`.
 */
export function createAuth(options: CreateAuthOptions) {
  return betterAuth({
    appName: 'Tambari',
    // Its own notes ("User not found" on a failed sign-in) are expected traffic; only errors matter.
    logger: {
      level: 'error',
      log: (level, message, ...args) =>
        options.log?.[level === 'debug' ? 'debug' : level]({ args }, `better-auth: ${message}`),
    },
    baseURL: options.appUrl,
    secret: options.secret,
    trustedOrigins: options.trustedOrigins,
    database: withHashedSessionTokens(
      drizzleAdapter(options.db, {
        provider: 'pg',
        schema: { user: users, session: sessions, account: accounts, verification: verifications },
      }),
    ),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      autoSignIn: true,
      resetPasswordTokenExpiresIn: RESET_TOKEN_TTL_SECONDS,
      revokeSessionsOnPasswordReset: true,
      password: {
        hash: (password) => hash(password),
        verify: ({ hash: stored, password }) => verify(stored, password),
      },
      // A reset link is good for one reset of the password it was sent for: the other links end with it.
      onPasswordReset: async ({ user }) => {
        await revokePasswordResetLinks({ db: options.db, userId: user.id });
        await options.onPasswordReset?.({ id: user.id, email: user.email });
      },
      sendResetPassword: async ({ user, token }) => {
        const firstName = (user as { firstName?: string }).firstName || user.name;
        await options.sendResetPassword({ email: user.email, firstName, token });
      },
    },
    // Reset tokens (and any other verification value) are stored as hashes: someone who reads the table
    // (a backup, a replica, a leaked dump) finds nothing that works as a link. The tokens are 24 random
    // characters, so a fast hash is enough.
    verification: {
      storeIdentifier: {
        default: 'hashed',
        overrides: {
          'reset-password:': {
            hash: async (identifier) => `${RESET_TOKEN_STORED_PREFIX}${sha256(identifier)}`,
          },
        },
      },
    },
    session: {
      expiresIn: SESSION_TTL_SECONDS,
      updateAge: 60 * 60 * 24,
    },
    user: {
      additionalFields: {
        firstName: { type: 'string', required: true, input: true },
        lastName: { type: 'string', required: false, input: true },
        subscriptionPlan: { type: 'string', required: false, defaultValue: 'free', input: false },
        subscriptionStatus: { type: 'string', required: false, input: false },
        subscriptionInterval: { type: 'string', required: false, input: false },
        subscriptionCurrentPeriodEnd: { type: 'date', required: false, input: false },
        role: { type: 'string', required: false, defaultValue: 'user', input: false },
        banned: { type: 'boolean', required: false, defaultValue: false, input: false },
        banReason: { type: 'string', required: false, input: false },
      },
    },
    databaseHooks: {
      user: {
        create: {
          after: async (user) => {
            await options.onUserCreated?.(user.id);
          },
        },
      },
      session: {
        create: {
          // A suspended account gets no new session, whatever the password says.
          before: async (session) => {
            const [user] = await options.db
              .select({ banned: users.banned })
              .from(users)
              .where(eq(users.id, session.userId))
              .limit(1);
            if (user?.banned)
              throw new APIError('FORBIDDEN', { message: MESSAGES.suspended, code: 'BANNED_USER' });
          },
        },
      },
    },
    advanced: {
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      cookiePrefix: SESSION_COOKIE_PREFIX,
      useSecureCookies: options.secureCookies,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure: options.secureCookies },
    },
    // Our Fastify routes carry their own rate limits (see auth.routes.ts); better-auth's limiter only
    // watches its own HTTP handler, which is not mounted.
    rateLimit: { enabled: false },
  });
}

export type Auth = ReturnType<typeof createAuth>;
