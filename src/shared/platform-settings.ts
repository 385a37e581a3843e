import { z } from 'zod';
import {
  SENDER_DAILY_CAP_DEFAULT,
  SENDER_DAILY_CAP_MAX,
  WARMUP_INCREMENT_DEFAULT,
  WARMUP_START_DEFAULT,
} from './sending';

/*
 * The platform's own settings, kept in the database and changed by super admins in /admin/settings.
 * Every field has a default, so a fresh install works before anyone opens the page.
 */

const line = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .refine((v) => !/[\r\n]/.test(v), `${label} cannot contain line breaks`);

const email = (label: string) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email(`${label}: enter a valid email address`));

const HOST_NAME =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export const platformSettingsSchema = z.object({
  company: z.object({
    /** Shown in the footer of system mail and as the From name unless one is set below. */
    name: line('Company name', 120).pipe(z.string().min(1, 'Enter the company name')),
    /** The postal address the footer of every system email carries. */
    postalAddress: z
      .string()
      .trim()
      .min(5, 'Enter the postal address shown in the footer of system emails')
      .max(300, 'Postal address must be at most 300 characters'),
    website: z
      .string()
      .trim()
      .max(200)
      .pipe(z.union([z.literal(''), z.url('Enter the website as a full URL like https://tambari.africa')])),
  }),
  systemMail: z.object({
    /** The From name of password resets, receipts and notices (the address stays SMTP_FROM's). */
    fromName: line('From name', 120).pipe(z.string().min(1, 'Enter the From name of system emails')),
  }),
  support: z.object({
    email: email('Support email'),
    billingEmail: email('Billing email'),
  }),
  /** What a new sender account starts with when its owner does not choose. */
  senderDefaults: z.object({
    dailyCap: z
      .number()
      .int()
      .min(1, 'Daily limit must be at least 1')
      .max(SENDER_DAILY_CAP_MAX, `Daily limit cannot be more than ${SENDER_DAILY_CAP_MAX} emails a day`),
    warmupEnabled: z.boolean(),
    warmupStart: z.number().int().min(1).max(SENDER_DAILY_CAP_MAX),
    warmupIncrement: z.number().int().min(1).max(50),
  }),
  tracking: z.object({
    /** Where open and click links point when a campaign names no tracking domain of its own; '' = APP_URL. */
    domain: z
      .string()
      .trim()
      .toLowerCase()
      .refine(
        (v) => v === '' || HOST_NAME.test(v),
        'Enter a host name like track.example.com, or leave it empty',
      ),
  }),
  signups: z.object({
    /** Closed: /register and POST /api/register refuse new accounts (existing users sign in as usual). */
    open: z.boolean(),
    closedMessage: line('Closed message', 300),
  }),
  features: z.object({
    /** The AI writer (needs AI_BASE_URL too); off: the AI endpoints answer 503 with the reason. */
    aiWriting: z.boolean(),
  }),
});
export type PlatformSettings = z.infer<typeof platformSettingsSchema>;

export const DEFAULT_PLATFORM_SETTINGS: PlatformSettings = {
  company: { name: 'Tambari', postalAddress: 'Tambari, Lagos, Nigeria', website: '' },
  systemMail: { fromName: 'Tambari' },
  support: { email: 'support@tambari.africa', billingEmail: 'billing@tambari.africa' },
  senderDefaults: {
    dailyCap: SENDER_DAILY_CAP_DEFAULT,
    warmupEnabled: false,
    warmupStart: WARMUP_START_DEFAULT,
    warmupIncrement: WARMUP_INCREMENT_DEFAULT,
  },
  tracking: { domain: '' },
  signups: {
    open: true,
    closedMessage: 'New sign-ups are closed for now. Existing customers can sign in as usual.',
  },
  features: { aiWriting: true },
};

/** A change: any sections, each whole (the page saves one section at a time). */
export const platformSettingsUpdateSchema = platformSettingsSchema.partial();
export type PlatformSettingsUpdate = z.infer<typeof platformSettingsUpdateSchema>;

export const PROVIDER_IDS = ['smtp', 'paystack', 'ai'] as const;
export const providerStatusSchema = z.object({
  id: z.enum(PROVIDER_IDS),
  name: z.string(),
  configured: z.boolean(),
  /** What runs in its place, or which variables to set (never a secret's value). */
  detail: z.string(),
});
export type ProviderStatus = z.infer<typeof providerStatusSchema>;

/** One saved change of a section: who, when, and each field before and after. */
export const settingsChangeSchema = z.object({
  id: z.string(),
  section: z.string(),
  actorEmail: z.string().nullable(),
  at: z.string(),
  changes: z.record(z.string(), z.object({ before: z.unknown(), after: z.unknown() })),
});
export type SettingsChange = z.infer<typeof settingsChangeSchema>;

export const platformSettingsResponseSchema = z.object({
  settings: platformSettingsSchema,
  providers: z.array(providerStatusSchema),
  /** The latest changes, newest first (from the audit log). */
  history: z.array(settingsChangeSchema),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
export type PlatformSettingsResponse = z.infer<typeof platformSettingsResponseSchema>;

/** What anyone may know before signing in: whether /register takes new accounts. */
export const signupStatusSchema = z.object({ open: z.boolean(), message: z.string() });
export type SignupStatus = z.infer<typeof signupStatusSchema>;

/** The defaults a new sender account's form starts from. */
export const senderDefaultsSchema = platformSettingsSchema.shape.senderDefaults;
export type SenderDefaults = z.infer<typeof senderDefaultsSchema>;
