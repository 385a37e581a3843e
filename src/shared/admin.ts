import { z } from 'zod';
import { userSchema } from './auth';
import { PLAN_IDS } from './plans';
import { ROLES } from './roles';

/**
 * The admin's view of a user names the plan as the product sells it (`planName`: Growth for
 * `professional`); the display-only `plan` (free or premium) stays on the user's own /api/user.
 */
export const adminUserSchema = userSchema.omit({ plan: true }).extend({
  planName: z.string(),
  banned: z.boolean(),
  banReason: z.string().nullable(),
  activeSessions: z.number(),
  lastActiveAt: z.string().nullable(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminUserListQuerySchema = z.object({
  search: z.string().trim().max(200).optional(),
  role: z.enum(ROLES).optional(),
  plan: z.enum(PLAN_IDS).optional(),
  status: z.enum(['active', 'suspended']).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});
export type AdminUserListQuery = z.infer<typeof adminUserListQuerySchema>;

export const adminUserListSchema = z.object({
  users: z.array(adminUserSchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});

export const adminUpdateUserSchema = z
  .strictObject({ role: z.enum(ROLES).optional(), subscriptionPlan: z.enum(PLAN_IDS).optional() })
  .refine((v) => v.role !== undefined || v.subscriptionPlan !== undefined, { message: 'Nothing to change' });

export const adminSuspendSchema = z.strictObject({
  reason: z
    .string({ error: 'A reason is required' })
    .trim()
    .min(1, 'A reason is required')
    .max(500, 'Reason must be at most 500 characters'),
});

export const auditEntrySchema = z.object({
  id: z.string(),
  actorId: z.string().nullable(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/**
 * Failed sign-ins per address, for the operator (GET /api/admin/security/sign-in-failures). Addresses
 * without an account are counted too, so the answers to the public cannot tell the two apart.
 */
export const signInFailureSchema = z.object({
  email: z.string(),
  accountExists: z.boolean(),
  /** Failures in the current streak (it ends after a successful sign-in or a quiet quarter of an hour). */
  failures: z.number(),
  /** Attempts refused while the address was locked. */
  refused: z.number(),
  firstFailedAt: z.string(),
  lastFailedAt: z.string(),
  lastAttemptAt: z.string(),
  lockedUntil: z.string().nullable(),
  locked: z.boolean(),
});
export type SignInFailure = z.infer<typeof signInFailureSchema>;

export const signInFailureListQuerySchema = z.object({
  lockedOnly: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});

export const signInFailureListSchema = z.object({
  entries: z.array(signInFailureSchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});

export const clearSignInFailuresSchema = z.strictObject({
  email: z.string().trim().toLowerCase().max(254),
});

export const adminOverviewSchema = z.object({
  totalUsers: z.number(),
  usersByRole: z.record(z.string(), z.number()),
  usersByPlan: z.record(z.string(), z.number()),
  signupsPerDay: z.array(z.object({ day: z.string(), count: z.number() })),
  activeSessions: z.number(),
  suspendedUsers: z.number(),
});
export type AdminOverview = z.infer<typeof adminOverviewSchema>;

export const devMailSummarySchema = z.object({
  id: z.string(),
  from: z.string(),
  to: z.string(),
  subject: z.string(),
  receivedAt: z.string(),
});
export const devMailSchema = devMailSummarySchema.extend({
  html: z.string().nullable(),
  text: z.string().nullable(),
  headers: z.array(z.object({ key: z.string(), value: z.string() })),
});
export type DevMailSummary = z.infer<typeof devMailSummarySchema>;
export type DevMail = z.infer<typeof devMailSchema>;
