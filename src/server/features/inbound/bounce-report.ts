import { flattenParts, type MimePart, parseFieldGroups, parseHeaderBlock } from './mime-parts';

/*
 * Delivery and feedback reports. Standard ones (RFC 3464 DSNs, RFC 5965 ARF complaints) are read from
 * their machine-readable parts; the rest ("failure notice" from qmail, Exim's "Mail delivery failed",
 * an Outlook "Undeliverable" without a report) are read heuristically for a status code and recipient.
 */

export interface BounceReading {
  /** failed (permanent or not, by status), delayed, or a success report (delivered/relayed/expanded). */
  outcome: 'hard' | 'soft' | 'success';
  recipient: string | null;
  statusCode: string | null;
  diagnostic: string | null;
  /** Message-IDs of the original message the report carries, without angle brackets. */
  originalMessageIds: string[];
}

export interface ComplaintReading {
  /** abuse, fraud, … (not-spam and auth-failure reports are not complaints). */
  feedbackType: string;
  isComplaint: boolean;
  recipient: string | null;
  originalMessageIds: string[];
}

const ENHANCED_STATUS = /(?<![\d.])([245])\.(\d{1,3})\.(\d{1,3})(?![\d.])/;
const ENHANCED_FAILURE = /(?<![\d.])([45])\.(\d{1,3})\.(\d{1,3})(?![\d.])/;
const BASIC_FAILURE = /(?<![\d.#:/\w-])([45][0-5]\d)(?=[ -][A-Za-z<#])/;
const ADDRESS = /[^\s<>()"',;:]+@[^\s<>()"',;:]+\.[A-Za-z]{2,}/;
const MAX_DIAGNOSTIC = 500;
const MAX_NOTICE_CHARS = 64 * 1024;

/** Mailbox full is a state the recipient can fix, not a dead address. */
const MAILBOX_FULL =
  /mailbox (?:is )?full|over ?quota|quota (?:exceeded|exceded)|exceeded (?:the |their |his |her )?(?:storage|quota)|insufficient (?:system )?storage|mailbox size limit/i;
const PERMANENT_PHRASES =
  /(?:user|recipient|address|mailbox|account)\s+(?:unknown|not found|does not exist|doesn't exist|unavailable|rejected|disabled|is disabled|deactivated|suspended)|no such (?:user|mailbox|address|recipient)|does not exist|doesn't exist|no mailbox here|couldn't be found|was not found|wasn't found|invalid (?:recipient|address|mailbox)|unknown (?:user|recipient|address)|permanent (?:error|failure)|address rejected|n'existe pas|introuvable/i;
const TEMPORARY_PHRASES =
  /temporar|delayed|will (?:be )?retr|still (?:being )?(?:retried|trying)|try again later|deferred|timed out|has not yet been delivered|warning only|not yet been delivered/i;

/** Where a bounce's copy of the original message starts; text after it is the sender's, not the MTA's. */
const ORIGINAL_COPY_MARKERS =
  /^[ \t]*-{2,}[^\n]*(?:copy of the message|below this line|original message|message d'origine|undelivered message)[^\n]*$|^[ \t]*(?:original message headers|----- original message -----)/im;

export function isReport(root: MimePart, reportType: 'delivery-status' | 'feedback-report'): boolean {
  return (
    root.contentType === 'multipart/report' && (root.params['report-type'] ?? '').toLowerCase() === reportType
  );
}

export function findPart(root: MimePart, contentType: string): MimePart | undefined {
  return flattenParts(root).find((part) => part.contentType === contentType);
}

/** Message-IDs of the original message a report carries (message/rfc822 or text/rfc822-headers). */
export function originalMessageIds(root: MimePart): string[] {
  const ids: string[] = [];
  for (const part of flattenParts(root)) {
    if (part === root) continue;
    if ((part.contentType === 'message/rfc822' || part.contentType === 'message/global') && part.parts[0]) {
      ids.push(...extractMessageIds(part.parts[0].headers.get('message-id')));
    } else if (part.contentType === 'text/rfc822-headers' || part.contentType === 'message/global-headers') {
      ids.push(
        ...extractMessageIds(parseHeaderBlock(part.body.split(/\r?\n\r?\n/)[0] ?? '').get('message-id')),
      );
    }
  }
  return ids;
}

/** `<a@b> <c@d>` (or bare ids) → ids without angle brackets. */
export function extractMessageIds(value: string | string[] | undefined | null): string[] {
  if (!value) return [];
  const text = Array.isArray(value) ? value.join(' ') : value;
  const bracketed = [...text.matchAll(/<([^<>\s]{1,500})>/g)].map((m) => m[1]!);
  if (bracketed.length > 0) return bracketed;
  return text.split(/[\s,]+/).filter((token) => token.includes('@') && token.length <= 500);
}

/** `rfc822; Someone@Example.com` → someone@example.com */
function recipientField(value: string | undefined): string | null {
  if (!value) return null;
  value = value.slice(0, 1000);
  const address = value.includes(';') ? value.slice(value.indexOf(';') + 1) : value;
  const match = ADDRESS.exec(address);
  return match ? match[0].toLowerCase() : null;
}

function cleanDiagnostic(value: string | undefined | null): string | null {
  if (!value) return null;
  const text = value
    .replace(/^\s*(?:smtp|x-[\w-]+)\s*;\s*/i, '')
    .replace(/\s+/g, ' ')
    .trim();
  return text ? text.slice(0, MAX_DIAGNOSTIC) : null;
}

function statusClass(status: string | null, diagnostic: string | null): 'hard' | 'soft' | null {
  const code = status ?? null;
  if (code?.startsWith('5'))
    return code === '5.2.2' || (diagnostic && MAILBOX_FULL.test(diagnostic)) ? 'soft' : 'hard';
  if (code?.startsWith('4')) return 'soft';
  return null;
}

/** Reads an RFC 3464 report; null when it has no delivery-status part to read. */
export function readDeliveryReport(root: MimePart): BounceReading | null {
  const statusPart = findPart(root, 'message/delivery-status');
  if (!statusPart) return null;
  const groups = parseFieldGroups(statusPart.body);
  const perMessage = groups.find((g) => !g.has('final-recipient') && !g.has('action'));
  const recipients = groups.filter((g) => g.has('final-recipient') || g.has('action'));
  const pick =
    recipients.find((g) => g.get('action')?.toLowerCase().startsWith('failed')) ??
    recipients.find((g) => g.get('action')?.toLowerCase().startsWith('delayed')) ??
    recipients[0];
  if (!pick) return null;
  const action = (pick.get('action') ?? '').toLowerCase();
  const statusCode =
    ENHANCED_STATUS.exec(pick.get('status') ?? '')
      ?.slice(1, 4)
      .join('.') ?? null;
  const diagnostic = cleanDiagnostic(pick.get('diagnostic-code'));
  const originalIds = [
    ...originalMessageIds(root),
    ...extractMessageIds(perMessage?.get('x-original-message-id')),
  ];
  const recipient =
    recipientField(pick.get('final-recipient')) ?? recipientField(pick.get('original-recipient'));
  let outcome: BounceReading['outcome'];
  if (/^(?:delivered|relayed|expanded)/.test(action)) outcome = 'success';
  else if (action.startsWith('delayed')) outcome = 'soft';
  else {
    const basic = BASIC_FAILURE.exec(diagnostic ?? '')?.[1];
    outcome =
      statusClass(statusCode ?? (basic ? `${basic[0]}.0.0` : null), diagnostic) ??
      (diagnostic && PERMANENT_PHRASES.test(diagnostic) ? 'hard' : 'soft');
  }
  return { outcome, recipient, statusCode, diagnostic, originalMessageIds: dedupe(originalIds) };
}

/** Reads an RFC 5965 feedback report; null when it has no feedback-report part. */
export function readFeedbackReport(root: MimePart): ComplaintReading | null {
  const part = findPart(root, 'message/feedback-report');
  if (!part) return null;
  const fields = parseFieldGroups(part.body)[0] ?? new Map<string, string>();
  const feedbackType = (fields.get('feedback-type') ?? 'abuse').trim().toLowerCase();
  const embedded = flattenParts(root).find((p) => p.contentType === 'message/rfc822')?.parts[0];
  return {
    feedbackType,
    isComplaint: !['not-spam', 'auth-failure'].includes(feedbackType),
    recipient: recipientField(fields.get('original-rcpt-to')) ?? recipientField(embedded?.headers.get('to')),
    originalMessageIds: originalMessageIds(root),
  };
}

/**
 * Reads a bounce that is not a standard report, from its text: the part before the copy of the
 * original message. `ownAddresses` (the mailbox's own) are never taken for the failed recipient.
 */
export function readBounceText(options: {
  text: string;
  failedRecipientsHeader: string | undefined;
  ownAddresses: string[];
}): BounceReading {
  // A bounce notice is short; capping what the patterns scan keeps hostile input linear.
  const text = options.text.slice(0, MAX_NOTICE_CHARS);
  const marker = ORIGINAL_COPY_MARKERS.exec(text);
  const notice = marker ? text.slice(0, marker.index) : text;
  const copy = marker ? text.slice(marker.index) : '';

  const enhanced = ENHANCED_FAILURE.exec(notice);
  const basic = enhanced ? null : BASIC_FAILURE.exec(notice);
  const statusCode = enhanced ? enhanced.slice(1, 4).join('.') : null;
  const diagnosticLine = enhanced ?? basic;
  const diagnostic = diagnosticLine ? cleanDiagnostic(lineAround(notice, diagnosticLine.index)) : null;

  let outcome: 'hard' | 'soft';
  const byCode = statusClass(statusCode ?? (basic ? `${basic[1]![0]}.0.0` : null), diagnostic);
  if (byCode) outcome = byCode === 'hard' && MAILBOX_FULL.test(notice) && !statusCode ? 'soft' : byCode;
  else if (MAILBOX_FULL.test(notice) || TEMPORARY_PHRASES.test(notice)) outcome = 'soft';
  else outcome = PERMANENT_PHRASES.test(notice) ? 'hard' : 'soft';

  return {
    outcome,
    recipient: findFailedRecipient(notice, options.failedRecipientsHeader, options.ownAddresses),
    statusCode,
    diagnostic,
    originalMessageIds: dedupe(extractMessageIds(/^message-id:[ \t]*(.+)$/im.exec(copy)?.[1])),
  };
}

/** The whole line (and its indented continuation) holding the status code. */
function lineAround(text: string, index: number): string {
  const start = text.lastIndexOf('\n', index) + 1;
  let end = text.indexOf('\n', index);
  while (end !== -1 && /^[ \t]+\S/.test(text.slice(end + 1, end + 3))) end = text.indexOf('\n', end + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

// An address ends in a letter (its top-level domain), never in the sentence's full stop.
const RECIPIENT_ADDRESS = '([^<>\\s@]+@[^<>\\s@]*[A-Za-z])';
/** Where text bounces name the failed recipient, most reliable first. */
const RECIPIENT_PATTERNS = [
  new RegExp(`RCPT TO:\\s*<${RECIPIENT_ADDRESS}>`, 'i'),
  new RegExp(`^\\s*<${RECIPIENT_ADDRESS}>:`, 'm'),
  new RegExp(`(?:final|original)-recipient:\\s*(?:rfc822;)?\\s*<?${RECIPIENT_ADDRESS}>?`, 'im'),
  new RegExp(
    `(?:message to|delivered to|delivery to|following (?:address(?:es)?|recipients?)[^:\\n]*:)\\s*<?${RECIPIENT_ADDRESS}`,
    'i',
  ),
  new RegExp(`^[ \\t]+<?${RECIPIENT_ADDRESS}>?[ \\t]*$`, 'm'),
];

function findFailedRecipient(notice: string, header: string | undefined, own: string[]): string | null {
  const ownSet = new Set(own.map((a) => a.toLowerCase()));

  const candidates = [header ?? '', ...RECIPIENT_PATTERNS.map((p) => p.exec(notice)?.[1] ?? '')];
  for (const candidate of candidates) {
    const match = ADDRESS.exec(candidate);
    if (match && !ownSet.has(match[0].toLowerCase())) return match[0].toLowerCase();
  }
  return null;
}

function dedupe(values: string[]): string[] {
  return [...new Set(values)];
}
