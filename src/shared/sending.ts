import { z } from 'zod';
import { timeZoneSchema } from './time-zone';

/*
 * The sending engine's vocabulary, shared by the server, the worker and the browser: sender accounts,
 * their presets and checks, outbox states and event types.
 */

export const SENDER_DAILY_CAP_DEFAULT = 50;
/** One sender account sends at most 300 emails a day: the ceiling of its daily cap. */
export const SENDER_DAILY_CAP_MAX = 300;
export const WARMUP_START_DEFAULT = 10;
export const WARMUP_INCREMENT_DEFAULT = 5;

export const SMTP_SECURITY = ['tls', 'starttls', 'none'] as const;
export type SmtpSecurity = (typeof SMTP_SECURITY)[number];
/**
 * The usual ports, for hints and presets. Any port from 1 to 65535 is accepted: the SSRF guard judges the
 * address, and a failed connection answers the same fixed message whatever was on the port
 * (docs/decisions/mail-servers-customers-have.md).
 */
export const SMTP_PORTS = [25, 465, 587, 2525] as const;
export const IMAP_PORTS = [143, 993] as const;
export const PORT_MESSAGE = 'Enter a port from 1 to 65535';
export function isValidPort(port: number): boolean {
  return Number.isInteger(port) && port >= 1 && port <= 65535;
}

export const SENDER_STATUSES = ['active', 'paused', 'failing'] as const;
export type SenderStatus = (typeof SENDER_STATUSES)[number];

export const OUTBOX_STATES = [
  'queued',
  'sending',
  'sent',
  'failed',
  'bounced',
  'suppressed',
  'cancelled',
] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

export const EMAIL_EVENT_TYPES = [
  'queued',
  'sent',
  'delivered',
  'opened',
  'clicked',
  'replied',
  'bounced',
  'unsubscribed',
  'complained',
  'failed',
  'suppressed',
  'out_of_office',
  /** The contact's mailbox could no longer send for the campaign; another one took over (detail says which). */
  'sender_changed',
  /** A send failed for a reason that may pass (4xx, timeout): the message waits to be tried again. */
  'deferred',
] as const;
export type EmailEventType = (typeof EMAIL_EVENT_TYPES)[number];

export const CAMPAIGN_KINDS = ['campaign', 'newsletter', 'bulk'] as const;
export type CampaignKind = (typeof CAMPAIGN_KINDS)[number];
/**
 * How a message's body is sent. `html`: the formatted HTML with a plain-text alternative (the default).
 * `text`: plain text only (text/plain, no HTML part: no pixel, no tracked links). `text_html`: plain text
 * first with a minimal HTML copy of it (paragraphs and links only), so clicks can be tracked.
 */
export const BODY_FORMATS = ['html', 'text_html', 'text'] as const;
export type BodyFormat = (typeof BODY_FORMATS)[number];
/** A campaign's statuses; newsletters have their own draft/scheduled/sent. */
export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'active', 'paused', 'completed', 'stopped'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export const CAMPAIGN_CONTACT_STATUSES = [
  'active',
  'paused',
  'replied',
  'bounced',
  'unsubscribed',
  'completed',
  'stopped',
] as const;
export type CampaignContactStatus = (typeof CAMPAIGN_CONTACT_STATUSES)[number];

export const TIMEZONE_MODES = ['recipient', 'fixed'] as const;
export type TimezoneMode = (typeof TIMEZONE_MODES)[number];

/** ISO weekday numbers, Monday = 1 … Sunday = 7. */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

export const DOMAIN_CHECK_STATUSES = ['pass', 'warn', 'fail'] as const;
export type DomainCheckStatus = (typeof DOMAIN_CHECK_STATUSES)[number];

export const domainCheckItemSchema = z.object({
  status: z.enum(DOMAIN_CHECK_STATUSES),
  /** What we found, in plain words. */
  detail: z.string(),
  /** The record found (TXT value, MX hosts…), when there is one. */
  found: z.string().nullable(),
  /** The DNS record to add or change to fix it, when it is not a pass. */
  fix: z.object({ type: z.string(), host: z.string(), value: z.string() }).nullable(),
});
export type DomainCheckItem = z.infer<typeof domainCheckItemSchema>;

export const domainCheckSchema = z.object({
  domain: z.string(),
  checkedAt: z.string(),
  spf: domainCheckItemSchema,
  dkim: domainCheckItemSchema.extend({ selector: z.string().nullable() }),
  dmarc: domainCheckItemSchema,
  mx: domainCheckItemSchema,
});
export type DomainCheck = z.infer<typeof domainCheckSchema>;

const hostSchema = z
  .string()
  .trim()
  .min(1, 'Enter the server host name')
  .max(253, 'Host name is too long')
  .regex(/^[a-zA-Z0-9.-]+$/, 'Enter a host name like smtp.example.com');

export const SENDER_COMPANY_MAX = 120;
/** The reply signature's limit, the same wherever it is edited (the inbox or the account's settings). */
export const SENDER_SIGNATURE_MAX = 2000;
export const senderSignatureSchema = z
  .string()
  .max(SENDER_SIGNATURE_MAX, 'A signature can be at most 2,000 characters');

const headerSafe = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .refine((v) => !/[\r\n]/.test(v), `${label} cannot contain line breaks`);

const emailSchema = z.string().trim().toLowerCase().pipe(z.email('Enter a valid email address'));

export const senderAccountInputSchema = z
  .object({
    label: headerSafe(80, 'Name').optional(),
    fromName: headerSafe(120, 'From name').pipe(z.string().min(1, 'Enter the name recipients will see')),
    fromEmail: emailSchema,
    /** Omitted on update keeps the stored value; empty clears it (so do company, label, dkimSelector). */
    replyTo: z.literal('').or(emailSchema).optional(),
    /** The company `{{ senderCompany }}` names; empty clears it. */
    company: headerSafe(SENDER_COMPANY_MAX, 'Company').optional(),
    /** Added below replies sent from the inbox; omitted keeps it, empty clears it. */
    signature: senderSignatureSchema.optional(),
    postalAddress: z
      .string()
      .trim()
      .min(5, 'Enter the postal address shown in the footer of your emails')
      .max(300, 'Postal address must be at most 300 characters'),
    smtpHost: hostSchema,
    smtpPort: z.coerce.number().int(),
    smtpSecurity: z.enum(SMTP_SECURITY),
    smtpUser: z.string().trim().min(1, 'Enter the user name').max(320),
    /** Omitted on update to keep the stored password. */
    smtpPassword: z.string().min(1, 'Enter the password').max(1024).optional(),
    imapEnabled: z.boolean().default(false),
    imapHost: hostSchema.optional(),
    imapPort: z.coerce.number().int().optional(),
    imapSecurity: z.enum(['tls', 'starttls', 'none']).optional(),
    imapUser: z.string().trim().max(320).optional(),
    imapPassword: z.string().max(1024).optional(),
    dailyCap: z.coerce
      .number()
      .int()
      .min(1, 'Daily limit must be at least 1')
      .max(SENDER_DAILY_CAP_MAX, `Daily limit cannot be more than ${SENDER_DAILY_CAP_MAX} emails a day`)
      .default(SENDER_DAILY_CAP_DEFAULT),
    warmupEnabled: z.boolean().default(false),
    warmupStart: z.coerce.number().int().min(1).max(SENDER_DAILY_CAP_MAX).default(WARMUP_START_DEFAULT),
    warmupIncrement: z.coerce.number().int().min(1).max(50).default(WARMUP_INCREMENT_DEFAULT),
    timeZone: timeZoneSchema.default('Africa/Lagos'),
    dkimSelector: z
      .string()
      .trim()
      .max(63)
      .regex(/^[a-zA-Z0-9._-]*$/, 'Enter a selector like google or s1')
      .optional(),
    /** Copy each sent campaign email into the mailbox's Sent folder (when IMAP is on). */
    sentFolderEnabled: z.boolean().default(true),
  })
  .superRefine((v, ctx) => {
    if (!isValidPort(v.smtpPort)) {
      ctx.addIssue({ code: 'custom', path: ['smtpPort'], message: PORT_MESSAGE });
    }
    if (v.imapEnabled) {
      if (!v.imapHost)
        ctx.addIssue({ code: 'custom', path: ['imapHost'], message: 'Enter the IMAP host name' });
      if (v.imapPort === undefined || !isValidPort(v.imapPort)) {
        ctx.addIssue({ code: 'custom', path: ['imapPort'], message: PORT_MESSAGE });
      }
    }
  });
export type SenderAccountInput = z.input<typeof senderAccountInputSchema>;

/** Why a server's certificate was not accepted; `changed`: not the certificate the owner trusted. */
export const CERTIFICATE_PROBLEMS = [
  'self_signed',
  'unknown_ca',
  'expired',
  'not_yet_valid',
  'name_mismatch',
  'changed',
  'other',
] as const;
export type CertificateProblem = (typeof CERTIFICATE_PROBLEMS)[number];

/** A server certificate as the trust prompt shows it. The fingerprint is SHA-256, colon-separated hex. */
export const trustedCertificateSchema = z.object({
  fingerprint: z.string(),
  subject: z.string(),
  issuer: z.string(),
  validFrom: z.string(),
  validTo: z.string(),
});
export const presentedCertificateSchema = trustedCertificateSchema.extend({
  problem: z.enum(CERTIFICATE_PROBLEMS),
});
export type PresentedCertificate = z.infer<typeof presentedCertificateSchema>;

export const senderAccountSchema = z.object({
  id: z.string(),
  label: z.string(),
  fromName: z.string(),
  fromEmail: z.string(),
  replyTo: z.string().nullable(),
  company: z.string().nullable(),
  /** Added below replies sent from the inbox. */
  signature: z.string().nullable(),
  postalAddress: z.string(),
  smtpHost: z.string(),
  smtpPort: z.number(),
  smtpSecurity: z.enum(SMTP_SECURITY),
  smtpUser: z.string(),
  imapEnabled: z.boolean(),
  imapHost: z.string().nullable(),
  imapPort: z.number().nullable(),
  imapSecurity: z.enum(SMTP_SECURITY).nullable(),
  imapUser: z.string().nullable(),
  dailyCap: z.number(),
  /** Today's cap after the warm-up ramp. */
  effectiveCap: z.number(),
  warmupEnabled: z.boolean(),
  warmupStart: z.number(),
  warmupIncrement: z.number(),
  timeZone: z.string(),
  dkimSelector: z.string().nullable(),
  status: z.enum(SENDER_STATUSES),
  statusReason: z.string().nullable(),
  statusChangedAt: z.string().nullable(),
  sentToday: z.number(),
  lastUsedAt: z.string().nullable(),
  imapCheckedAt: z.string().nullable(),
  imapError: z.string().nullable(),
  domainCheck: domainCheckSchema.nullable(),
  isDevMailbox: z.boolean(),
  /** The certificates the owner chose to trust (pinned); null: the usual public authorities. */
  smtpTrustedCertificate: trustedCertificateSchema.nullable(),
  imapTrustedCertificate: trustedCertificateSchema.nullable(),
  sentFolderEnabled: z.boolean(),
  /** The last failed copy to the Sent folder (a fixed message); null once a copy succeeds. */
  sentFolderError: z.string().nullable(),
  sentFolderAppendedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type SenderAccount = z.infer<typeof senderAccountSchema>;

export const senderPresetSchema = z.object({
  id: z.string(),
  name: z.string(),
  smtpHost: z.string(),
  smtpPort: z.number(),
  smtpSecurity: z.enum(SMTP_SECURITY),
  imapHost: z.string().nullable(),
  imapPort: z.number().nullable(),
  imapSecurity: z.enum(SMTP_SECURITY).nullable(),
  /** Shown next to the form: app passwords, "less secure apps", … */
  help: z.string(),
});
export type SenderPreset = z.infer<typeof senderPresetSchema>;

const serverTestResultSchema = z.object({
  ok: z.boolean(),
  message: z.string(),
  /** The certificate the server presented, when the test failed on it: what "Trust this certificate" pins. */
  certificate: presentedCertificateSchema.optional(),
});
export type ServerTestResult = z.infer<typeof serverTestResultSchema>;

export const connectionTestResultSchema = z.object({
  smtp: serverTestResultSchema,
  imap: serverTestResultSchema.nullable(),
});
export type ConnectionTestResult = z.infer<typeof connectionTestResultSchema>;

const fingerprintSchema = z
  .string()
  .trim()
  .regex(/^([0-9A-Fa-f]{2}:?){31}[0-9A-Fa-f]{2}$/, 'Enter a SHA-256 fingerprint');

/**
 * POST /api/sender-accounts/test: the form as typed; while editing, `accountId` reuses stored passwords.
 * A `…TrustFingerprint` tests as if that certificate were trusted (the form's "Trust this certificate"
 * before the account is saved): it counts only if the server presents exactly that certificate.
 */
export const senderConnectionTestSchema = senderAccountInputSchema.and(
  z.object({
    accountId: z.uuid('Sender account not found').optional(),
    smtpTrustFingerprint: fingerprintSchema.optional(),
    imapTrustFingerprint: fingerprintSchema.optional(),
  }),
);

/**
 * POST /api/sender-accounts/:id/trust-certificate: pin the certificate the server presents now, if its
 * fingerprint is the one the user checked; `fingerprint: null` forgets the pin.
 */
export const senderTrustCertificateSchema = z.object({
  server: z.enum(['smtp', 'imap']),
  fingerprint: fingerprintSchema.nullable(),
});
export type SenderTrustCertificateInput = z.infer<typeof senderTrustCertificateSchema>;

/** POST /api/sender-accounts/:id/send-test: to the signed-in user's own address when `to` is left out. */
export const senderTestEmailSchema = z.object({
  to: z.string().trim().toLowerCase().pipe(z.email('Enter a valid email address')).optional(),
});

/** Public tracking and unsubscribe paths (no sign-in). The token is the outbox message's opaque id. */
export const TRACKING_PATHS = {
  open: (token: string) => `/t/o/${token}.gif`,
  click: (token: string, linkIndex: number) => `/t/c/${token}/${linkIndex}`,
  unsubscribe: (token: string) => `/u/${token}`,
} as const;
