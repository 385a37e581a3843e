import { sessions, users } from '@server/db/schema/index';
import { AppError } from '@server/lib/errors';
import { toUserDto } from '@server/lib/user-dto';
import type { Services } from '@server/services';
import {
  type LoginInput,
  MESSAGES,
  type RegisterInput,
  type SubscriptionInfo,
  type User,
} from '@shared/auth';
import { PLAN_NAMES } from '@shared/plans';
import { needsPayment } from '@shared/subscription';
import { APIError } from 'better-auth/api';
import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { claimResetMail, clearSignInFailures, startPasswordCheck } from './account-throttles.service';
import { assertAcceptablePassword } from './password-policy';

export { revokePasswordResetLinks } from '@server/lib/auth';
export { assertAcceptablePassword } from './password-policy';

type AuthServices = Pick<Services, 'auth' | 'db'>;

function apiErrorCode(error: unknown): string | undefined {
  return error instanceof APIError ? (error.body as { code?: string } | undefined)?.code : undefined;
}

export async function findUserByEmail({ db, email }: { db: Services['db']; email: string }) {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
    .limit(1);
  return row ?? null;
}

/**
 * The 409 with action login_required and `existingUser`, which the sign-up screen turns into a switch to
 * sign in and a welcome-back toast. The caller is anonymous, so `existingUser` echoes what they sent
 * (their email, the first name they typed) and nothing stored.
 */
function existingAccountError(sent: { email: string; firstName: string }) {
  return new AppError('conflict', 'An account with this email already exists. Please sign in instead.', {
    action: 'login_required',
    existingUser: { email: sent.email, firstName: sent.firstName },
  });
}

export async function registerUser(
  services: AuthServices,
  options: { input: RegisterInput; headers: Headers },
): Promise<{ user: User; headers: Headers }> {
  const email = options.input.email.toLowerCase();
  const firstName = options.input.firstName;
  const existing = await findUserByEmail({ db: services.db, email });
  if (existing) throw existingAccountError({ email, firstName });
  assertAcceptablePassword(options.input.password, { email });
  const lastName = options.input.lastName || null;
  try {
    const { headers, response } = await services.auth.api.signUpEmail({
      body: {
        email,
        password: options.input.password,
        name: [firstName, lastName].filter(Boolean).join(' '),
        firstName,
        lastName: lastName ?? undefined,
      },
      headers: options.headers,
      returnHeaders: true,
    });
    const [row] = await services.db.select().from(users).where(eq(users.id, response.user.id)).limit(1);
    return { user: toUserDto(row ?? response.user), headers };
  } catch (error) {
    // Two sign-ups for one email racing each other: the loser gets the same answer as a late arrival.
    // better-auth reports the loser as USER_ALREADY_EXISTS…, or as FAILED_TO_CREATE_USER when the insert
    // itself hits the unique email index.
    const code = apiErrorCode(error);
    if (code?.startsWith('USER_ALREADY_EXISTS') || code === 'FAILED_TO_CREATE_USER') {
      const raced = await findUserByEmail({ db: services.db, email });
      if (raced) throw existingAccountError({ email, firstName });
    }
    throw error;
  }
}

export function subscriptionInfoFor(user: User): SubscriptionInfo | undefined {
  if (!needsPayment(user)) return undefined;
  return {
    needsPayment: true,
    subscriptionPlan: user.subscriptionPlan,
    message: `Your ${PLAN_NAMES[user.subscriptionPlan]} plan is waiting for payment. Complete payment to continue.`,
  };
}

export async function loginUser(
  services: AuthServices,
  options: { input: LoginInput; headers: Headers; log?: FastifyBaseLogger },
): Promise<{ user: User; headers: Headers }> {
  const email = options.input.email.toLowerCase();
  // Per-account throttle (account-throttles.service.ts): a locked address gets the per-IP limiter's own
  // answer, whether it has an account or not, and the password is not even checked.
  await startPasswordCheck({ db: services.db, email, log: options.log });
  // A fresh session id at every sign-in: whatever session this browser carried before is ended once the
  // new one exists (a failed attempt leaves the current session alone).
  const previous = await services.auth.api.getSession({ headers: options.headers }).catch(() => null);
  try {
    const { headers, response } = await services.auth.api.signInEmail({
      body: { email, password: options.input.password, rememberMe: true },
      headers: options.headers,
      returnHeaders: true,
    });
    await clearSignInFailures({ db: services.db, email });
    if (previous) await services.db.delete(sessions).where(eq(sessions.id, previous.session.id));
    const [row] = await services.db.select().from(users).where(eq(users.id, response.user.id)).limit(1);
    return { user: toUserDto(row ?? response.user), headers };
  } catch (error) {
    const code = apiErrorCode(error);
    if (code === 'BANNED_USER' || (error instanceof APIError && error.status === 'FORBIDDEN')) {
      // The password was right: not a guess.
      await clearSignInFailures({ db: services.db, email });
      throw new AppError('forbidden', MESSAGES.suspended);
    }
    if (error instanceof APIError && (error.status === 'UNAUTHORIZED' || error.status === 'BAD_REQUEST')) {
      throw new AppError('unauthorized', MESSAGES.invalidCredentials);
    }
    throw error;
  }
}

export async function requestPasswordReset(
  services: AuthServices,
  options: { email: string; headers: Headers; log?: FastifyBaseLogger },
) {
  const email = options.email.toLowerCase();
  // At most a few mails an hour to one address; past that the caller gets the usual answer and the mailbox
  // nothing (counted for unknown addresses too, so the answers cannot tell them apart).
  if (!(await claimResetMail({ db: services.db, email }))) {
    options.log?.warn('password reset: hourly limit for one address reached, no mail sent');
    return;
  }
  await services.auth.api.requestPasswordReset({ body: { email }, headers: options.headers });
}

export async function resetPassword(services: AuthServices, options: { token: string; password: string }) {
  assertAcceptablePassword(options.password);
  try {
    await services.auth.api.resetPassword({ body: { token: options.token, newPassword: options.password } });
  } catch (error) {
    if (error instanceof APIError && error.statusCode < 500)
      throw new AppError('bad_request', MESSAGES.resetInvalid);
    throw error;
  }
}
