import {
  IMAP_PORTS,
  SENDER_DAILY_CAP_DEFAULT,
  type SenderAccount,
  type SenderAccountInput,
  type SenderPreset,
  SMTP_PORTS,
  type SmtpSecurity,
  senderAccountInputSchema,
  WARMUP_INCREMENT_DEFAULT,
  WARMUP_START_DEFAULT,
} from '@shared/sending';
import type { FieldError, FieldErrors, Resolver } from 'react-hook-form';

/**
 * What the sender account form holds: numbers as the text the user typed, and one convenience switch
 * (`imapSameAsSmtp`) the API does not know. `toSenderInput` turns it into the API's body.
 */
export interface SenderFormValues {
  fromName: string;
  fromEmail: string;
  replyTo: string;
  /** Who "we" are: `{{ senderCompany }}` in the copy. */
  company: string;
  /** Added below replies sent from the inbox. */
  signature: string;
  postalAddress: string;
  smtpHost: string;
  smtpPort: string;
  smtpSecurity: SmtpSecurity;
  smtpUser: string;
  smtpPassword: string;
  imapEnabled: boolean;
  imapSameAsSmtp: boolean;
  imapHost: string;
  imapPort: string;
  imapSecurity: SmtpSecurity;
  imapUser: string;
  imapPassword: string;
  /** Copy sent campaign emails to the mailbox's Sent folder (with IMAP on). */
  sentFolderEnabled: boolean;
  dailyCap: string;
  warmupEnabled: boolean;
  warmupStart: string;
  warmupIncrement: string;
  timeZone: string;
  dkimSelector: string;
}

export type SenderFormMode = 'create' | 'edit';

export const DEFAULT_TIME_ZONE = 'Africa/Lagos';

/** Shown first in the picker and chosen when the user fills everything in by hand. */
export const CUSTOM_PRESET_ID = 'custom';
/** The built-in development mailbox's preset ('dev-mailbox' in the contract, 'tambari-test-mailbox' served). */
const DEV_MAILBOX_PRESET_IDS = new Set(['dev-mailbox', 'tambari-test-mailbox']);

export function isDevMailboxPreset(preset: Pick<SenderPreset, 'id'> | string | undefined): boolean {
  const id = typeof preset === 'string' ? preset : preset?.id;
  return id !== undefined && DEV_MAILBOX_PRESET_IDS.has(id);
}

/** Hosting presets name the server after the customer's own domain: `mail.yourdomain.com`. */
const DOMAIN_PLACEHOLDER = 'yourdomain.com';

/**
 * A preset's host for this sender: the placeholder domain becomes the from address's domain, or the host
 * is left blank (for the user to type) while there is no address yet.
 */
export function presetHost(template: string, fromEmail: string): string {
  if (!template.includes(DOMAIN_PLACEHOLDER)) return template;
  const domain = fromEmail.trim().toLowerCase().split('@')[1] ?? '';
  return /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain) ? template.replaceAll(DOMAIN_PLACEHOLDER, domain) : '';
}

const CUSTOM_PRESET: SenderPreset = {
  id: CUSTOM_PRESET_ID,
  name: 'Other mail server',
  smtpHost: '',
  smtpPort: 587,
  smtpSecurity: 'starttls',
  imapHost: null,
  imapPort: null,
  imapSecurity: null,
  help: 'Enter the SMTP details your email host gives you (often under "email client setup" or "IMAP/SMTP settings"). Port 587 with STARTTLS or 465 with SSL/TLS is the usual choice.',
};

/** The server's presets with the hand-filled "Other mail server" choice at the end (once). */
export function withCustomPreset(presets: readonly SenderPreset[]): SenderPreset[] {
  const list = presets.filter((preset) => preset.id !== CUSTOM_PRESET_ID);
  const fromServer = presets.find((preset) => preset.id === CUSTOM_PRESET_ID);
  return [...list, fromServer ?? CUSTOM_PRESET];
}

export function emptySenderForm(defaults: { fromName?: string; timeZone?: string } = {}): SenderFormValues {
  return {
    fromName: defaults.fromName ?? '',
    fromEmail: '',
    replyTo: '',
    company: '',
    signature: '',
    postalAddress: '',
    smtpHost: '',
    smtpPort: '587',
    smtpSecurity: 'starttls',
    smtpUser: '',
    smtpPassword: '',
    imapEnabled: false,
    imapSameAsSmtp: true,
    imapHost: '',
    imapPort: '993',
    imapSecurity: 'tls',
    imapUser: '',
    imapPassword: '',
    sentFolderEnabled: true,
    dailyCap: String(SENDER_DAILY_CAP_DEFAULT),
    warmupEnabled: false,
    warmupStart: String(WARMUP_START_DEFAULT),
    warmupIncrement: String(WARMUP_INCREMENT_DEFAULT),
    timeZone: defaults.timeZone ?? DEFAULT_TIME_ZONE,
    dkimSelector: '',
  };
}

const isMailPort = (port: number) => (SMTP_PORTS as readonly number[]).includes(port);

/** The form filled from a saved account; passwords stay blank ("leave blank to keep"). */
export function senderFormFromAccount(account: SenderAccount): SenderFormValues {
  const imapUser = account.imapUser ?? '';
  return {
    fromName: account.fromName,
    fromEmail: account.fromEmail,
    replyTo: account.replyTo ?? '',
    company: account.company ?? '',
    signature: account.signature ?? '',
    postalAddress: account.postalAddress,
    smtpHost: account.smtpHost,
    // The test mailbox's connection is Tambari's (hidden in the form, ignored on save) and may run on any
    // port; the form keeps a mail port so the shared rules pass.
    smtpPort: account.isDevMailbox && !isMailPort(account.smtpPort) ? '2525' : String(account.smtpPort),
    smtpSecurity: account.smtpSecurity,
    smtpUser: account.smtpUser,
    smtpPassword: '',
    imapEnabled: account.imapEnabled,
    imapSameAsSmtp: !account.imapEnabled || imapUser === '' || imapUser === account.smtpUser,
    imapHost: account.imapHost ?? '',
    imapPort: String(account.imapPort ?? 993),
    imapSecurity: account.imapSecurity ?? 'tls',
    imapUser,
    imapPassword: '',
    sentFolderEnabled: account.sentFolderEnabled,
    dailyCap: String(account.dailyCap),
    warmupEnabled: account.warmupEnabled,
    warmupStart: String(account.warmupStart),
    warmupIncrement: String(account.warmupIncrement),
    timeZone: account.timeZone,
    dkimSelector: account.dkimSelector ?? '',
  };
}

/**
 * Fills the server settings of a provider. The identity, user, password and limits the user typed stay;
 * a preset with IMAP turns reply tracking on with the same sign-in as SMTP, which is how these hosts work.
 */
export function applyPreset(values: SenderFormValues, preset: SenderPreset): SenderFormValues {
  if (preset.id === CUSTOM_PRESET_ID) return values;
  const next: SenderFormValues = {
    ...values,
    smtpHost: presetHost(preset.smtpHost, values.fromEmail),
    smtpPort: String(preset.smtpPort),
    smtpSecurity: preset.smtpSecurity,
  };
  if (preset.imapHost) {
    next.imapEnabled = true;
    next.imapSameAsSmtp = true;
    next.imapHost = presetHost(preset.imapHost, values.fromEmail);
    next.imapPort = String(preset.imapPort ?? 993);
    next.imapSecurity = preset.imapSecurity ?? 'tls';
  }
  return next;
}

/**
 * The preset whose SMTP server the values point at, else the custom choice. Hosting presets named after the
 * customer's domain match only that domain's server, and all look alike, so the first one stands for them.
 */
export function matchPreset(
  presets: readonly SenderPreset[],
  values: Pick<SenderFormValues, 'smtpHost' | 'smtpPort' | 'fromEmail'>,
): string {
  const host = values.smtpHost.trim().toLowerCase();
  const match = presets.find(
    (preset) =>
      preset.id !== CUSTOM_PRESET_ID &&
      host !== '' &&
      presetHost(preset.smtpHost, values.fromEmail).toLowerCase() === host &&
      String(preset.smtpPort) === values.smtpPort.trim(),
  );
  return match?.id ?? CUSTOM_PRESET_ID;
}

const blankToUndefined = (value: string) => (value.trim() === '' ? undefined : value);

/**
 * The API body. Empty optional fields are left out; while editing, a blank password keeps the stored one;
 * with "same as SMTP" the IMAP sign-in copies the SMTP one.
 */
export function toSenderInput(values: SenderFormValues, mode: SenderFormMode): SenderAccountInput {
  const smtpPassword = values.smtpPassword === '' && mode === 'edit' ? undefined : values.smtpPassword;
  const input: SenderAccountInput = {
    fromName: values.fromName,
    fromEmail: values.fromEmail,
    replyTo: values.replyTo.trim(),
    company: values.company.trim(),
    signature: values.signature.trim(),
    postalAddress: values.postalAddress,
    smtpHost: values.smtpHost,
    smtpPort: values.smtpPort.trim(),
    smtpSecurity: values.smtpSecurity,
    smtpUser: values.smtpUser,
    smtpPassword,
    imapEnabled: values.imapEnabled,
    sentFolderEnabled: values.sentFolderEnabled,
    dailyCap: values.dailyCap.trim(),
    warmupEnabled: values.warmupEnabled,
    warmupStart: values.warmupStart.trim(),
    warmupIncrement: values.warmupIncrement.trim(),
    timeZone: values.timeZone,
    dkimSelector: values.dkimSelector.trim(),
  };
  if (values.imapEnabled) {
    input.imapHost = blankToUndefined(values.imapHost);
    input.imapPort = blankToUndefined(values.imapPort);
    input.imapSecurity = values.imapSecurity;
    if (values.imapSameAsSmtp) {
      input.imapUser = values.smtpUser;
      input.imapPassword = smtpPassword;
    } else {
      input.imapUser = values.imapUser;
      input.imapPassword = values.imapPassword === '' && mode === 'edit' ? undefined : values.imapPassword;
    }
  }
  return input;
}

/** A field problem the shared schema cannot know about: it depends on the form's mode and switches. */
export interface SenderFormProblem {
  /** `root` when the problem belongs to no field of the form. */
  field: keyof SenderFormValues | 'root';
  message: string;
}

/**
 * Checks that need the form's context: a new account needs its password; IMAP needs a sign-in, and a
 * password unless one is already stored for it.
 */
export function findSenderFormProblems(
  values: SenderFormValues,
  context: { mode: SenderFormMode; imapPasswordStored: boolean },
): SenderFormProblem[] {
  const problems: SenderFormProblem[] = [];
  if (context.mode === 'create' && values.smtpPassword === '') {
    problems.push({ field: 'smtpPassword', message: 'Enter the password' });
  }
  if (!values.imapEnabled) return problems;
  const needsImapPassword = context.mode === 'create' || !context.imapPasswordStored;
  if (values.imapSameAsSmtp) {
    if (needsImapPassword && values.smtpPassword === '' && context.mode === 'edit') {
      problems.push({
        field: 'smtpPassword',
        message: 'Enter the password again so incoming mail can sign in with it too',
      });
    }
    return problems;
  }
  if (values.imapUser.trim() === '')
    problems.push({ field: 'imapUser', message: 'Enter the IMAP user name' });
  if (needsImapPassword && values.imapPassword === '') {
    problems.push({ field: 'imapPassword', message: 'Enter the IMAP password' });
  }
  return problems;
}

export type SenderFormValidation =
  | { ok: true; input: SenderAccountInput }
  | { ok: false; problems: SenderFormProblem[] };

/**
 * Validates the form with the shared schema (the same rules as the server) plus the form's own checks,
 * naming each problem by its form field.
 */
export function validateSenderForm(
  values: SenderFormValues,
  context: { mode: SenderFormMode; imapPasswordStored: boolean },
): SenderFormValidation {
  const input = toSenderInput(values, context.mode);
  const problems = findSenderFormProblems(values, context);
  const parsed = senderAccountInputSchema.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = toFormField(String(issue.path[0] ?? ''), values) ?? 'root';
      if (!problems.some((problem) => problem.field === field)) {
        problems.push({ field, message: issue.message });
      }
    }
  }
  if (problems.length > 0 || !parsed.success) return { ok: false, problems };
  // The parsed body: numbers as numbers, addresses trimmed and lower-cased, as the server reads it.
  return { ok: true, input: parsed.data };
}

/** react-hook-form's resolver over {@link validateSenderForm}: the submitted value is the API body. */
export function senderFormResolver(context: {
  mode: SenderFormMode;
  imapPasswordStored: boolean;
}): Resolver<SenderFormValues, unknown, SenderAccountInput> {
  return async (values) => {
    const result = validateSenderForm(values, context);
    if (result.ok) return { values: result.input, errors: {} };
    const errors: Record<string, FieldError> = {};
    for (const problem of result.problems) {
      errors[problem.field] = { type: 'validation', message: problem.message };
    }
    return { values: {}, errors: errors as FieldErrors<SenderFormValues> };
  };
}

const FORM_FIELDS = new Set<string>(Object.keys(emptySenderForm()));

/**
 * The form field an API field problem belongs on. With "same as SMTP" the IMAP sign-in is the SMTP one,
 * so its problems show on the SMTP fields.
 */
export function toFormField(path: string, values: Pick<SenderFormValues, 'imapSameAsSmtp'>) {
  const name = path.split('.').pop() ?? '';
  if (values.imapSameAsSmtp && name === 'imapUser') return 'smtpUser';
  if (values.imapSameAsSmtp && name === 'imapPassword') return 'smtpPassword';
  return FORM_FIELDS.has(name) ? (name as keyof SenderFormValues) : undefined;
}

/** "Day 1: 10 emails, then 5 more each day; the full 50 a day from day 9." */
export function describeWarmup(
  values: Pick<SenderFormValues, 'warmupStart' | 'warmupIncrement' | 'dailyCap'>,
) {
  const start = Number(values.warmupStart);
  const increment = Number(values.warmupIncrement);
  const cap = Number(values.dailyCap);
  if (![start, increment, cap].every((n) => Number.isInteger(n) && n > 0)) return null;
  if (start >= cap) return `Starts at the full ${cap} a day: lower the first day's number to ramp up.`;
  const fullFromDay = Math.ceil((cap - start) / increment) + 1;
  return `Day 1 sends up to ${start}, then ${increment} more each day, reaching the full ${cap} a day on day ${fullFromDay}.`;
}

/** The ports a sender account may use, under the port fields. */
export const SMTP_PORT_HINT = `Usually 587 with STARTTLS or 465 with SSL/TLS (common: ${SMTP_PORTS.join(', ')}); your server may use another.`;
export const IMAP_PORT_HINT = `Usually 993 with SSL/TLS (common: ${IMAP_PORTS.join(', ')}); your server may use another.`;
