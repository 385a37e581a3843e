import type { DomainCheck, DomainCheckItem, DomainCheckStatus, SenderAccount } from '@shared/sending';

export type BadgeTone = 'success' | 'warning' | 'destructive' | 'secondary';

export interface SenderStatusDisplay {
  label: 'Active' | 'Paused' | 'Failing';
  tone: BadgeTone;
  /** Why it is not sending, in a sentence, or null when it is active. */
  detail: string | null;
}

/** The status badge and, for a paused or failing account, why and since when. */
export function senderStatusDisplay(
  account: Pick<SenderAccount, 'status' | 'statusReason' | 'statusChangedAt'>,
  formatWhen: (iso: string) => string,
): SenderStatusDisplay {
  const since = account.statusChangedAt ? ` since ${formatWhen(account.statusChangedAt)}` : '';
  switch (account.status) {
    case 'paused':
      return {
        label: 'Paused',
        tone: 'secondary',
        detail: `Paused${since}${account.statusReason ? `: ${account.statusReason}` : ''}. Campaigns skip it until you resume it.`,
      };
    case 'failing':
      return {
        label: 'Failing',
        tone: 'destructive',
        detail: `Failing${since}: ${account.statusReason ?? 'the mail server refused it'}. Campaigns skip it; fix its settings, test the connection, then resume it.`,
      };
    default:
      return { label: 'Active', tone: 'success', detail: null };
  }
}

export interface CapacityDisplay {
  sent: number;
  cap: number;
  /** 0–100 for the progress bar. */
  percent: number;
  label: string;
  /** Set while the warm-up ramp keeps today's cap under the account's daily cap. */
  warmupNote: string | null;
  full: boolean;
}

/** "12 of 50 sent today", with the warm-up explained when it lowers today's cap. */
export function capacityDisplay(
  account: Pick<SenderAccount, 'sentToday' | 'effectiveCap' | 'dailyCap' | 'warmupEnabled'>,
): CapacityDisplay {
  const cap = Math.max(0, account.effectiveCap);
  const sent = Math.max(0, account.sentToday);
  const percent = cap === 0 ? 100 : Math.min(100, Math.round((sent / cap) * 100));
  const warming = account.warmupEnabled && account.effectiveCap < account.dailyCap;
  return {
    sent,
    cap,
    percent,
    label: `${sent} of ${cap} sent today`,
    warmupNote: warming
      ? `Warming up: today's limit is ${account.effectiveCap}, rising each day to ${account.dailyCap}.`
      : null,
    full: sent >= cap,
  };
}

export type ImapState = 'off' | 'waiting' | 'ok' | 'error';

/** Whether replies and bounces are read (shown under a "Replies" heading), and how the last check went. */
export function imapDisplay(
  account: Pick<SenderAccount, 'imapEnabled' | 'imapCheckedAt' | 'imapError'>,
  formatWhen: (iso: string) => string,
): { state: ImapState; text: string } {
  if (!account.imapEnabled) return { state: 'off', text: 'Not read: no incoming mail server (IMAP) set up.' };
  if (account.imapError) return { state: 'error', text: `Mailbox check failed: ${account.imapError}` };
  if (!account.imapCheckedAt) return { state: 'waiting', text: 'Mailbox not checked yet.' };
  return { state: 'ok', text: `Mailbox checked ${formatWhen(account.imapCheckedAt)}.` };
}

export const DOMAIN_CHECK_KEYS = ['spf', 'dkim', 'dmarc', 'mx'] as const;
export type DomainCheckKey = (typeof DOMAIN_CHECK_KEYS)[number];

export const DOMAIN_CHECK_LABELS: Record<DomainCheckKey, string> = {
  spf: 'SPF',
  dkim: 'DKIM',
  dmarc: 'DMARC',
  mx: 'MX',
};

/** What each record does, in one line, for the panel. */
export const DOMAIN_CHECK_PURPOSE: Record<DomainCheckKey, string> = {
  spf: 'Lists the servers allowed to send mail for your domain.',
  dkim: 'Signs each email so receivers can tell it really came from you.',
  dmarc: 'Tells receivers what to do with mail that fails SPF and DKIM.',
  mx: 'Where replies and bounces to your domain are delivered.',
};

export const DOMAIN_STATUS_LABELS: Record<DomainCheckStatus, string> = {
  pass: 'Pass',
  warn: 'Warning',
  fail: 'Fail',
};

const SEVERITY: Record<DomainCheckStatus, number> = { pass: 0, warn: 1, fail: 2 };

export interface DomainCheckSummary {
  overall: DomainCheckStatus | 'unchecked';
  items: { key: DomainCheckKey; label: string; status: DomainCheckStatus }[];
  /** How many records are not a pass. */
  problems: number;
  headline: string;
}

export function domainCheckItems(check: DomainCheck): { key: DomainCheckKey; item: DomainCheckItem }[] {
  return DOMAIN_CHECK_KEYS.map((key) => ({ key, item: check[key] }));
}

/** The four pills and one line: "All four records pass" or "2 records to fix on example.com". */
export function summarizeDomainCheck(check: DomainCheck | null): DomainCheckSummary {
  if (!check) {
    return {
      overall: 'unchecked',
      items: [],
      problems: 0,
      headline: 'Domain not checked yet.',
    };
  }
  const items = domainCheckItems(check).map(({ key, item }) => ({
    key,
    label: DOMAIN_CHECK_LABELS[key],
    status: item.status,
  }));
  const overall = items.reduce<DomainCheckStatus>(
    (worst, item) => (SEVERITY[item.status] > SEVERITY[worst] ? item.status : worst),
    'pass',
  );
  const problems = items.filter((item) => item.status !== 'pass').length;
  const failing = items.filter((item) => item.status === 'fail').length;
  let headline: string;
  if (problems === 0) headline = `SPF, DKIM, DMARC and MX all pass for ${check.domain}.`;
  else if (failing > 0)
    headline = `${failing} ${failing === 1 ? 'record' : 'records'} to fix on ${check.domain}: mail may land in spam.`;
  else headline = `${problems} ${problems === 1 ? 'record' : 'records'} to improve on ${check.domain}.`;
  return { overall, items, problems, headline };
}
