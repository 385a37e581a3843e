import type { SenderPreset } from '@shared/sending';

/*
 * Settings of the mail providers our users have, so the quick setup is "pick Gmail, paste an app password".
 * `spfInclude` and `mx` feed the domain check's suggested records for a provider we recognise.
 */

export interface ProviderHints {
  /** The SPF `include:` the provider asks for, when it has one. */
  spfInclude: string | null;
  /** MX record a domain hosted there usually has (for the fix suggestion). */
  mx: ((domain: string) => string) | null;
  /** The DKIM selector the provider uses, when it is fixed. */
  dkimSelector: string | null;
}

interface PresetDefinition extends SenderPreset {
  /** SMTP host names that mean this provider (for the domain check of an account typed by hand). */
  matches: RegExp;
  hints: ProviderHints;
}

const CPANEL_HELP =
  'cPanel hosting: the mail server is mail.yourdomain.com (replace yourdomain.com with your own domain). ' +
  'Use the full email address as the user name and the password of that mailbox (cPanel → Email Accounts). ' +
  'Turn on DKIM and SPF in cPanel → Email Deliverability.';

const cpanelHints: ProviderHints = {
  spfInclude: null,
  mx: (domain) => `0 mail.${domain}`,
  dkimSelector: 'default',
};

const PRESETS: PresetDefinition[] = [
  {
    id: 'gmail',
    name: 'Gmail / Google Workspace',
    smtpHost: 'smtp.gmail.com',
    smtpPort: 465,
    smtpSecurity: 'tls',
    imapHost: 'imap.gmail.com',
    imapPort: 993,
    imapSecurity: 'tls',
    help:
      'Turn on 2-Step Verification for the Google account, then create an app password ' +
      '(Google Account → Security → App passwords) and paste it here. Your normal password will not work.',
    matches: /(^|\.)(gmail|googlemail|google)\.com$/,
    hints: { spfInclude: '_spf.google.com', mx: () => '1 smtp.google.com', dkimSelector: 'google' },
  },
  {
    id: 'microsoft365',
    name: 'Microsoft 365 / Outlook',
    smtpHost: 'smtp.office365.com',
    smtpPort: 587,
    smtpSecurity: 'starttls',
    imapHost: 'outlook.office365.com',
    imapPort: 993,
    imapSecurity: 'tls',
    help:
      'Your administrator must allow "Authenticated SMTP" for this mailbox (Microsoft 365 admin center → ' +
      'Users → Mail → Manage email apps). With multi-factor sign-in, create an app password and use it here.',
    matches: /(^|\.)(office365|outlook|office)\.com$/,
    hints: {
      spfInclude: 'spf.protection.outlook.com',
      mx: (domain) => `0 ${domain.replaceAll('.', '-')}.mail.protection.outlook.com`,
      dkimSelector: 'selector1',
    },
  },
  {
    id: 'zoho',
    name: 'Zoho Mail',
    smtpHost: 'smtp.zoho.com',
    smtpPort: 465,
    smtpSecurity: 'tls',
    imapHost: 'imap.zoho.com',
    imapPort: 993,
    imapSecurity: 'tls',
    help:
      'Use smtppro.zoho.com instead of smtp.zoho.com for a paid plan on your own domain. Turn on IMAP access ' +
      'in Zoho Mail settings; with two-factor sign-in, create an application-specific password.',
    matches: /(^|\.)zoho\.(com|eu|in)$/,
    hints: { spfInclude: 'zohomail.com', mx: () => '10 mx.zoho.com', dkimSelector: 'zmail' },
  },
  {
    id: 'whogohost',
    name: 'Whogohost (cPanel)',
    smtpHost: 'mail.yourdomain.com',
    smtpPort: 465,
    smtpSecurity: 'tls',
    imapHost: 'mail.yourdomain.com',
    imapPort: 993,
    imapSecurity: 'tls',
    help: CPANEL_HELP,
    matches: /(^|\.)whogohost\.com$/,
    hints: cpanelHints,
  },
  {
    id: 'smartweb',
    name: 'SmartWeb (cPanel)',
    smtpHost: 'mail.yourdomain.com',
    smtpPort: 465,
    smtpSecurity: 'tls',
    imapHost: 'mail.yourdomain.com',
    imapPort: 993,
    imapSecurity: 'tls',
    help: CPANEL_HELP,
    matches: /(^|\.)smartweb\.com\.ng$/,
    hints: cpanelHints,
  },
  {
    id: 'domainking-qservers',
    name: 'DomainKing / Qservers (cPanel)',
    smtpHost: 'mail.yourdomain.com',
    smtpPort: 465,
    smtpSecurity: 'tls',
    imapHost: 'mail.yourdomain.com',
    imapPort: 993,
    imapSecurity: 'tls',
    help: CPANEL_HELP,
    matches: /(^|\.)(domainking\.ng|qservers\.net)$/,
    hints: cpanelHints,
  },
  {
    id: 'yahoo',
    name: 'Yahoo Mail',
    smtpHost: 'smtp.mail.yahoo.com',
    smtpPort: 465,
    smtpSecurity: 'tls',
    imapHost: 'imap.mail.yahoo.com',
    imapPort: 993,
    imapSecurity: 'tls',
    help:
      'Create an app password (Yahoo Account security → Generate app password) and paste it here. Yahoo ' +
      'sends only from your own @yahoo address and allows few emails a day: keep the daily limit low.',
    matches: /(^|\.)yahoo\.com$/,
    hints: { spfInclude: null, mx: null, dkimSelector: 's2048' },
  },
  {
    id: 'custom',
    name: 'Custom SMTP',
    smtpHost: '',
    smtpPort: 587,
    smtpSecurity: 'starttls',
    imapHost: null,
    imapPort: 993,
    imapSecurity: 'tls',
    help:
      'Your email host gives these settings (often on a page called "email client settings"). Port 465 uses ' +
      'SSL/TLS, port 587 uses STARTTLS.',
    matches: /^$/,
    hints: { spfInclude: null, mx: null, dkimSelector: null },
  },
];

export const DEV_MAILBOX_PRESET_ID = 'tambari-test-mailbox';

/** The presets offered in the quick setup; the test mailbox only while the development mailbox runs. */
export function listSenderPresets(options: { devMailboxPort: number | null }): SenderPreset[] {
  const presets: SenderPreset[] = PRESETS.map(({ matches: _m, hints: _h, ...preset }) => preset);
  if (options.devMailboxPort !== null) {
    presets.unshift({
      id: DEV_MAILBOX_PRESET_ID,
      name: 'Tambari test mailbox',
      smtpHost: '127.0.0.1',
      smtpPort: options.devMailboxPort,
      smtpSecurity: 'none',
      imapHost: null,
      imapPort: null,
      imapSecurity: null,
      help:
        'The built-in development mailbox: nothing leaves this machine. Read what was sent under ' +
        'Admin → Dev mailbox. Add it with one click.',
    });
  }
  return presets;
}

/** The provider behind an SMTP host name, when we know it. */
export function providerHintsFor(smtpHost: string | null | undefined): ProviderHints | null {
  const host = (smtpHost ?? '').trim().toLowerCase();
  if (!host) return null;
  return PRESETS.find((p) => p.id !== 'custom' && p.matches.test(host))?.hints ?? null;
}
