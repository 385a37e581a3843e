import type { SenderAccount, SenderPreset } from '@shared/sending';
import { describe, expect, it } from 'vitest';
import {
  applyPreset,
  CUSTOM_PRESET_ID,
  describeWarmup,
  emptySenderForm,
  isDevMailboxPreset,
  matchPreset,
  presetHost,
  type SenderFormValues,
  senderFormFromAccount,
  senderFormResolver,
  toFormField,
  toSenderInput,
  validateSenderForm,
  withCustomPreset,
} from './sender-form';

const gmail: SenderPreset = {
  id: 'gmail',
  name: 'Gmail / Google Workspace',
  smtpHost: 'smtp.gmail.com',
  smtpPort: 465,
  smtpSecurity: 'tls',
  imapHost: 'imap.gmail.com',
  imapPort: 993,
  imapSecurity: 'tls',
  help: 'Use an app password.',
};

const smtpOnly: SenderPreset = {
  id: 'smtp-only-host',
  name: 'Host without IMAP',
  smtpHost: 'mail.host.ng',
  smtpPort: 587,
  smtpSecurity: 'starttls',
  imapHost: null,
  imapPort: null,
  imapSecurity: null,
  help: '',
};

const cpanel: SenderPreset = {
  id: 'whogohost',
  name: 'Whogohost (cPanel)',
  smtpHost: 'mail.yourdomain.com',
  smtpPort: 465,
  smtpSecurity: 'tls',
  imapHost: 'mail.yourdomain.com',
  imapPort: 993,
  imapSecurity: 'tls',
  help: 'cPanel hosting',
};

function filled(overrides: Partial<SenderFormValues> = {}): SenderFormValues {
  return {
    ...emptySenderForm({ fromName: 'Adaeze Okafor' }),
    fromEmail: 'Sales@Kora.ng ',
    postalAddress: '12 Admiralty Way, Lekki, Lagos',
    smtpHost: 'smtp.kora.ng',
    smtpUser: 'sales@kora.ng',
    smtpPassword: 'secret-1',
    ...overrides,
  };
}

const account: SenderAccount = {
  id: 'acc-1',
  label: 'Sales',
  fromName: 'Kora Sales',
  fromEmail: 'sales@kora.ng',
  replyTo: null,
  company: null,
  signature: 'Ada\nKora Sales',
  postalAddress: '12 Admiralty Way, Lekki, Lagos',
  smtpHost: 'smtp.gmail.com',
  smtpPort: 465,
  smtpSecurity: 'tls',
  smtpUser: 'sales@kora.ng',
  imapEnabled: true,
  imapHost: 'imap.gmail.com',
  imapPort: 993,
  imapSecurity: 'tls',
  imapUser: 'replies@kora.ng',
  dailyCap: 120,
  effectiveCap: 40,
  warmupEnabled: true,
  warmupStart: 20,
  warmupIncrement: 10,
  timeZone: 'Africa/Accra',
  dkimSelector: 'google',
  status: 'active',
  statusReason: null,
  statusChangedAt: null,
  sentToday: 3,
  lastUsedAt: null,
  imapCheckedAt: null,
  imapError: null,
  domainCheck: null,
  isDevMailbox: false,
  smtpTrustedCertificate: null,
  imapTrustedCertificate: null,
  sentFolderEnabled: true,
  sentFolderError: null,
  sentFolderAppendedAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
};

describe('applyPreset', () => {
  it('fills the server settings and keeps what the user typed', () => {
    const next = applyPreset(filled({ smtpPort: '2525', dailyCap: '80' }), gmail);
    expect(next).toMatchObject({
      smtpHost: 'smtp.gmail.com',
      smtpPort: '465',
      smtpSecurity: 'tls',
      smtpUser: 'sales@kora.ng',
      smtpPassword: 'secret-1',
      dailyCap: '80',
      fromName: 'Adaeze Okafor',
    });
  });

  it('turns reading replies on with the same sign-in when the provider has IMAP', () => {
    const next = applyPreset(filled({ imapSameAsSmtp: false }), gmail);
    expect(next).toMatchObject({
      imapEnabled: true,
      imapSameAsSmtp: true,
      imapHost: 'imap.gmail.com',
      imapPort: '993',
      imapSecurity: 'tls',
    });
  });

  it('leaves IMAP alone for a provider without it, and everything alone for "other server"', () => {
    const start = filled({ imapEnabled: false, imapHost: 'imap.kora.ng' });
    expect(applyPreset(start, smtpOnly)).toMatchObject({ imapEnabled: false, imapHost: 'imap.kora.ng' });
    const custom = withCustomPreset([]).find((preset) => preset.id === CUSTOM_PRESET_ID);
    expect(custom).toBeDefined();
    expect(applyPreset(start, custom as SenderPreset)).toEqual(start);
  });
});

describe('presetHost and hosting presets', () => {
  it("names a hosting preset's server after the from address's domain", () => {
    expect(presetHost('mail.yourdomain.com', 'Sales@Kora.ng ')).toBe('mail.kora.ng');
    expect(presetHost('smtp.gmail.com', 'sales@kora.ng')).toBe('smtp.gmail.com');
  });

  it('leaves the host blank until there is an address with a domain', () => {
    expect(presetHost('mail.yourdomain.com', '')).toBe('');
    expect(presetHost('mail.yourdomain.com', 'sales@')).toBe('');
    expect(presetHost('mail.yourdomain.com', 'sales@localhost')).toBe('');
  });

  it('fills both servers of a hosting preset from the address', () => {
    expect(applyPreset(filled(), cpanel)).toMatchObject({
      smtpHost: 'mail.kora.ng',
      imapHost: 'mail.kora.ng',
    });
  });
});

describe('isDevMailboxPreset', () => {
  it('knows the test mailbox under either id', () => {
    expect(isDevMailboxPreset('dev-mailbox')).toBe(true);
    expect(isDevMailboxPreset({ id: 'tambari-test-mailbox' })).toBe(true);
    expect(isDevMailboxPreset(gmail)).toBe(false);
    expect(isDevMailboxPreset(undefined)).toBe(false);
  });
});

describe('withCustomPreset and matchPreset', () => {
  it('adds "other mail server" once, at the end', () => {
    const list = withCustomPreset([gmail, smtpOnly]);
    expect(list.map((preset) => preset.id)).toEqual(['gmail', 'smtp-only-host', CUSTOM_PRESET_ID]);
    expect(withCustomPreset(list).filter((preset) => preset.id === CUSTOM_PRESET_ID)).toHaveLength(1);
  });

  it('finds the provider of saved settings by host and port, case-blind', () => {
    const presets = withCustomPreset([gmail, smtpOnly]);
    const fromEmail = 'sales@kora.ng';
    expect(matchPreset(presets, { smtpHost: 'SMTP.Gmail.com', smtpPort: '465', fromEmail })).toBe('gmail');
    expect(matchPreset(presets, { smtpHost: 'smtp.gmail.com', smtpPort: '587', fromEmail })).toBe(
      CUSTOM_PRESET_ID,
    );
    expect(matchPreset(presets, { smtpHost: 'smtp.other.ng', smtpPort: '465', fromEmail })).toBe(
      CUSTOM_PRESET_ID,
    );
  });

  it("matches a hosting preset only on the sender's own domain", () => {
    const presets = withCustomPreset([cpanel]);
    expect(matchPreset(presets, { smtpHost: 'mail.kora.ng', smtpPort: '465', fromEmail: 'a@kora.ng' })).toBe(
      'whogohost',
    );
    expect(matchPreset(presets, { smtpHost: 'mail.other.ng', smtpPort: '465', fromEmail: 'a@kora.ng' })).toBe(
      CUSTOM_PRESET_ID,
    );
    expect(matchPreset(presets, { smtpHost: '', smtpPort: '465', fromEmail: '' })).toBe(CUSTOM_PRESET_ID);
  });
});

describe('toSenderInput', () => {
  it('copies the SMTP sign-in to IMAP with "same as SMTP"', () => {
    const input = toSenderInput(
      filled({ imapEnabled: true, imapHost: 'imap.kora.ng', imapUser: 'ignored', imapPassword: 'ignored' }),
      'create',
    );
    expect(input).toMatchObject({
      imapUser: 'sales@kora.ng',
      imapPassword: 'secret-1',
      imapHost: 'imap.kora.ng',
    });
  });

  it('sends no IMAP settings when IMAP is off', () => {
    const input = toSenderInput(filled({ imapEnabled: false, imapHost: 'imap.kora.ng' }), 'create');
    expect(input.imapEnabled).toBe(false);
    expect(input).not.toHaveProperty('imapHost');
    expect(input).not.toHaveProperty('imapPassword');
  });

  it('leaves blank passwords out while editing, so the stored ones are kept', () => {
    const input = toSenderInput(
      filled({
        smtpPassword: '',
        imapEnabled: true,
        imapSameAsSmtp: false,
        imapUser: 'r@kora.ng',
        imapPassword: '',
      }),
      'edit',
    );
    expect(input.smtpPassword).toBeUndefined();
    expect(input.imapPassword).toBeUndefined();
    expect(input.imapUser).toBe('r@kora.ng');
  });
});

describe('validateSenderForm', () => {
  const create = { mode: 'create' as const, imapPasswordStored: false };

  it('answers the API body, parsed as the server parses it', () => {
    const result = validateSenderForm(filled({ smtpPort: ' 465 ', dailyCap: '120', replyTo: '' }), create);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.input).toMatchObject({
      fromEmail: 'sales@kora.ng',
      smtpPort: 465,
      dailyCap: 120,
      timeZone: 'Africa/Lagos',
    });
    // Blank is sent as empty: on an edit that clears the stored reply-to (omitting it would keep it).
    expect(result.input.replyTo).toBe('');
  });

  it('names a port outside 1–65535 on the port field, and takes any other', () => {
    const result = validateSenderForm(filled({ smtpPort: '65536' }), create);
    expect(result).toEqual({
      ok: false,
      problems: [{ field: 'smtpPort', message: 'Enter a port from 1 to 65535' }],
    });
    expect(validateSenderForm(filled({ smtpPort: '10025' }), create).ok).toBe(true);
  });

  it('refuses a daily limit over 300 and a from name with a line break', () => {
    const result = validateSenderForm(filled({ dailyCap: '301', fromName: 'Kora\r\nBcc: x@y.z' }), create);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual(
      expect.arrayContaining([
        { field: 'dailyCap', message: 'Daily limit cannot be more than 300 emails a day' },
        { field: 'fromName', message: 'From name cannot contain line breaks' },
      ]),
    );
  });

  it('needs a password for a new account, not for an edit', () => {
    const blank = filled({ smtpPassword: '' });
    expect(validateSenderForm(blank, create)).toEqual({
      ok: false,
      problems: [{ field: 'smtpPassword', message: 'Enter the password' }],
    });
    expect(validateSenderForm(blank, { mode: 'edit', imapPasswordStored: false }).ok).toBe(true);
  });

  it('needs an IMAP sign-in of its own when it is not the SMTP one', () => {
    const values = filled({
      imapEnabled: true,
      imapSameAsSmtp: false,
      imapHost: 'imap.kora.ng',
      imapPort: '993',
    });
    const result = validateSenderForm(values, create);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((problem) => problem.field)).toEqual(['imapUser', 'imapPassword']);
    // Editing an account that already reads its mailbox keeps the stored IMAP password.
    const edit = validateSenderForm(
      { ...values, imapUser: 'r@kora.ng' },
      { mode: 'edit', imapPasswordStored: true },
    );
    expect(edit.ok).toBe(true);
  });

  it('asks for the password again when IMAP is turned on with "same as SMTP" while editing', () => {
    const values = filled({ smtpPassword: '', imapEnabled: true, imapHost: 'imap.kora.ng', imapPort: '993' });
    const result = validateSenderForm(values, { mode: 'edit', imapPasswordStored: false });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems[0]?.field).toBe('smtpPassword');
  });

  it('puts an IMAP host and port problem on the IMAP fields', () => {
    const result = validateSenderForm(filled({ imapEnabled: true, imapHost: '', imapPort: '0' }), create);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual(
      expect.arrayContaining([
        { field: 'imapHost', message: 'Enter the IMAP host name' },
        { field: 'imapPort', message: 'Enter a port from 1 to 65535' },
      ]),
    );
  });
});

describe('senderFormResolver', () => {
  it('gives react-hook-form the body on success and field errors otherwise', async () => {
    const resolve = senderFormResolver({ mode: 'create', imapPasswordStored: false });
    const ok = await resolve(filled(), undefined, { fields: {}, shouldUseNativeValidation: false });
    expect(ok.errors).toEqual({});
    expect(ok.values).toMatchObject({ smtpPort: 587 });
    const bad = await resolve(filled({ fromEmail: 'not-an-address' }), undefined, {
      fields: {},
      shouldUseNativeValidation: false,
    });
    expect(bad.errors.fromEmail?.message).toBe('Enter a valid email address');
  });
});

describe('senderFormFromAccount', () => {
  it('fills the form from a saved account with blank passwords', () => {
    const values = senderFormFromAccount(account);
    expect(values).toMatchObject({
      smtpPort: '465',
      smtpPassword: '',
      imapPassword: '',
      imapSameAsSmtp: false,
      imapUser: 'replies@kora.ng',
      dailyCap: '120',
      warmupStart: '20',
      timeZone: 'Africa/Accra',
      dkimSelector: 'google',
      replyTo: '',
      signature: 'Ada\nKora Sales',
    });
    expect(senderFormFromAccount({ ...account, imapUser: 'sales@kora.ng' }).imapSameAsSmtp).toBe(true);
    // The signature goes back trimmed; cleared, it is sent empty (the server stores none).
    expect(toSenderInput({ ...values, signature: '  Ada  ' }, 'edit').signature).toBe('Ada');
    expect(toSenderInput({ ...values, signature: '   ' }, 'edit').signature).toBe('');
  });

  it('lets the test mailbox be edited when it runs on a port outside the mail ports', () => {
    // Its connection is Tambari's own (not editable, ignored on save); the API shows the live port.
    const devMailbox = { ...account, isDevMailbox: true, smtpHost: '127.0.0.1', smtpPort: 41234 };
    const values = { ...senderFormFromAccount(devMailbox), imapEnabled: false, smtpPassword: '' };
    expect(validateSenderForm(values, { mode: 'edit', imapPasswordStored: false })).toMatchObject({
      ok: true,
    });
  });
});

describe('toFormField', () => {
  it('maps API paths onto form fields, IMAP sign-in onto SMTP with "same as SMTP"', () => {
    expect(toFormField('smtpHost', { imapSameAsSmtp: true })).toBe('smtpHost');
    expect(toFormField('body.smtpPort', { imapSameAsSmtp: true })).toBe('smtpPort');
    expect(toFormField('imapPassword', { imapSameAsSmtp: true })).toBe('smtpPassword');
    expect(toFormField('imapPassword', { imapSameAsSmtp: false })).toBe('imapPassword');
    expect(toFormField('accountId', { imapSameAsSmtp: false })).toBeUndefined();
  });
});

describe('describeWarmup', () => {
  it('says on which day the full limit is reached', () => {
    expect(describeWarmup({ warmupStart: '10', warmupIncrement: '5', dailyCap: '50' })).toBe(
      'Day 1 sends up to 10, then 5 more each day, reaching the full 50 a day on day 9.',
    );
    expect(describeWarmup({ warmupStart: '10', warmupIncrement: '7', dailyCap: '50' })).toContain(
      'on day 7.',
    );
  });

  it('explains a start at or above the limit, and says nothing for numbers that are not numbers', () => {
    expect(describeWarmup({ warmupStart: '60', warmupIncrement: '5', dailyCap: '50' })).toContain(
      'Starts at the full 50 a day',
    );
    expect(describeWarmup({ warmupStart: '', warmupIncrement: '5', dailyCap: '50' })).toBeNull();
    expect(describeWarmup({ warmupStart: '2.5', warmupIncrement: '5', dailyCap: '50' })).toBeNull();
  });
});
