import { z } from 'zod';
import { BILLING_INTERVALS, PLAN_IDS } from './plans';
import { ROLES } from './roles';

export const MIN_PASSWORD_LENGTH = 6;
export const MAX_PASSWORD_LENGTH = 128;

export const MESSAGES = {
  invalidEmail: 'Please enter a valid email address',
  passwordTooShort: 'Password must be at least 6 characters',
  passwordTooLong: 'Password must be at most 128 characters',
  firstNameRequired: 'First name is required',
  invalidCredentials: 'Invalid email or password. Please try again.',
  commonPassword: 'This password is too common. Please choose a less predictable password.',
  notAuthenticated: 'Not authenticated',
  tooManyAttempts: 'Too many attempts. Please wait a few minutes and try again.',
  resetRequested: "If an account exists for that email, we've sent a link to reset your password.",
  resetInvalid: 'This password reset link is invalid or has expired. Please request a new one.',
  resetDone: 'Your password has been reset. Please sign in with your new password.',
  suspended: 'Your account has been suspended. Please contact support.',
} as const;

const email = z
  .string({ error: MESSAGES.invalidEmail })
  .trim()
  .max(254, MESSAGES.invalidEmail)
  .pipe(z.email({ error: MESSAGES.invalidEmail }));

export const passwordSchema = z
  .string({ error: MESSAGES.passwordTooShort })
  .min(MIN_PASSWORD_LENGTH, MESSAGES.passwordTooShort)
  .max(MAX_PASSWORD_LENGTH, MESSAGES.passwordTooLong);

const personName = (requiredMessage?: string) => {
  // A missing or non-string name gets the same message as a blank one ("First name is required").
  const base = z
    .string(requiredMessage ? { error: requiredMessage } : undefined)
    .trim()
    .max(100, 'Name must be at most 100 characters');
  return requiredMessage ? base.min(1, requiredMessage) : base;
};

export const loginSchema = z.strictObject({
  email,
  // Sign-in only checks length, so an old short password still gets the usual too-short message, not a lockout.
  password: z
    .string({ error: MESSAGES.passwordTooShort })
    .min(MIN_PASSWORD_LENGTH, MESSAGES.passwordTooShort)
    .max(MAX_PASSWORD_LENGTH, MESSAGES.passwordTooLong),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const registerSchema = z.strictObject({
  email,
  password: passwordSchema,
  firstName: personName(MESSAGES.firstNameRequired),
  lastName: personName().optional(),
});
export type RegisterInput = z.infer<typeof registerSchema>;

export const forgotPasswordSchema = z.strictObject({ email });
export const resetPasswordSchema = z.strictObject({
  token: z.string().min(1, MESSAGES.resetInvalid).max(200, MESSAGES.resetInvalid),
  password: passwordSchema,
});

export const updateProfileSchema = z.strictObject({
  firstName: personName(MESSAGES.firstNameRequired),
  lastName: personName().optional(),
});
export const changePasswordSchema = z.strictObject({
  currentPassword: z.string().min(1, 'Current password is required').max(MAX_PASSWORD_LENGTH),
  newPassword: passwordSchema,
});
export const deleteAccountSchema = z.strictObject({
  password: z.string().min(1, 'Password is required').max(MAX_PASSWORD_LENGTH),
});

export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string().nullable(),
  role: z.enum(ROLES),
  subscriptionPlan: z.enum(PLAN_IDS),
  plan: z.enum(['free', 'premium']),
  subscriptionStatus: z.string().nullable(),
  subscriptionInterval: z.enum(BILLING_INTERVALS).nullable(),
  subscriptionCurrentPeriodEnd: z.string().nullable(),
  createdAt: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const subscriptionInfoSchema = z.object({
  needsPayment: z.boolean(),
  subscriptionPlan: z.enum(PLAN_IDS),
  message: z.string(),
});
export type SubscriptionInfo = z.infer<typeof subscriptionInfoSchema>;

export const loginResponseSchema = userSchema.extend({ subscriptionInfo: subscriptionInfoSchema.optional() });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const sessionSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  expiresAt: z.string(),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionSchema>;

export const messageSchema = z.object({ message: z.string() });
