import { parseApiError } from '@/lib/errors';

export interface RegistrationErrorOutcome {
  title: string;
  description: string;
  /** Set when the screen should switch to sign in, with the email to prefill. */
  switchToLogin?: { email: string | undefined; firstName: string | undefined; message: string };
}

const EMAIL_IN_TEXT = /[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}/i;
const NAME_IN_TEXT = /(?:welcome back|hi|hello),?\s+([\p{L}][\p{L}'’-]*)/iu;

/** The email and first name, taken from the message text of an "already exists" answer. */
export function extractExistingAccount(message: string): { email?: string; firstName?: string } {
  const email = EMAIL_IN_TEXT.exec(message)?.[0];
  const firstName = NAME_IN_TEXT.exec(message)?.[1];
  return { ...(email ? { email } : {}), ...(firstName ? { firstName } : {}) };
}

/**
 * Registration failures, checked in this order:
 * 409 + login_required → Account Found (server message), switch with existingUser;
 * 400 + switch_to_login → Account Exists ("Please sign in with your existing account."), switch;
 * a message containing "already exists" → switch with a welcome-back toast;
 * otherwise Registration Failed with the server message or the fallback text.
 */
export function describeRegistrationError(error: unknown, submittedEmail?: string): RegistrationErrorOutcome {
  const { status, message, data } = parseApiError(error);
  const action = data?.action;

  if (status === 409 && action === 'login_required') {
    const description = message ?? 'An account with this email already exists. Please sign in.';
    return {
      title: 'Account Found',
      description,
      switchToLogin: {
        email: data?.existingUser?.email ?? submittedEmail,
        firstName: data?.existingUser?.firstName,
        message: description,
      },
    };
  }

  if (status === 400 && action === 'switch_to_login') {
    const description = 'Please sign in with your existing account.';
    return {
      title: 'Account Exists',
      description,
      switchToLogin: {
        email: data?.existingUser?.email ?? submittedEmail,
        firstName: data?.existingUser?.firstName,
        message: description,
      },
    };
  }

  if (message?.toLowerCase().includes('already exists')) {
    const found = extractExistingAccount(message);
    const firstName = found.firstName ?? data?.existingUser?.firstName;
    const description = firstName
      ? `Welcome back, ${firstName}! Please sign in to complete your subscription`
      : 'Account already exists. Please sign in instead.';
    return {
      title: 'Welcome back!',
      description,
      switchToLogin: {
        email: found.email ?? data?.existingUser?.email ?? submittedEmail,
        firstName,
        message: description,
      },
    };
  }

  return {
    title: 'Registration Failed',
    description: message ?? 'Unable to create account. Please try again.',
  };
}
