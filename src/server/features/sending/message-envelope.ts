import { domainToASCII } from 'node:url';
import { now } from '@server/lib/clock';
import { AppError } from '@server/lib/errors';
import { timeOrderedUuid } from '@server/lib/time-ordered-id';
import { type CampaignKind, TRACKING_PATHS } from '@shared/sending';
import { assertTrackingToken, checkedTrackingBase } from './message-content';
import type { ComposedMail } from './raw-message';

/*
 * Headers and the compliance footer, built at send time for the chosen sender account. Runs once per
 * message on the dispatcher's hot path (1,000+ a second): string work only, no parsing of the body.
 *
 * Deliberately absent headers:
 * - Precedence: bulk — marks one-to-one cold email as a mailing (Promotions tab) and tells auto-responders
 *   not to answer (RFC 3834), and their out-of-office replies are how we learn when a contact is back.
 * - X-Tambari-* ids — the Message-ID already maps a reply or a bounce to its outbox row; more ids only
 *   leak our internals. Feedback-ID likewise: Gmail's feedback loop wants a stable sender id we do not
 *   have per account yet.
 */

// C0 controls (CR, LF, NUL, TAB…), DEL, C1 controls (NEL), and the Unicode line and paragraph separators:
// anything a mail client or a relay might read as a line break.
const CONTROL_CHARACTERS = /[\p{Cc}\u2028\u2029]+/gu;
const HAS_CONTROL_CHARACTER = /[\p{Cc}\u2028\u2029]/u;

/** A header value on one line: control characters become spaces, runs of spaces one. */
export function cleanHeaderText(value: string, maxLength = 998): string {
  return value.replace(CONTROL_CHARACTERS, ' ').replace(/ {2,}/g, ' ').trim().slice(0, maxLength);
}

// An addr-spec without quoting, comments or lists: no spaces, separators, brackets or quotes anywhere.
const ADDRESS_PATTERN = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/u;

/** Refuses (never repairs) an address: a "fixed" address would be somebody else's. */
function checkedAddress(value: string, role: string): string {
  const address = typeof value === 'string' ? value.trim() : '';
  if (address.length > 254 || !ADDRESS_PATTERN.test(address) || HAS_CONTROL_CHARACTER.test(address)) {
    throw new AppError('validation', `Invalid ${role} address`);
  }
  return address;
}

function domainOf(email: string): string {
  const domain = domainToASCII(email.slice(email.lastIndexOf('@') + 1).toLowerCase());
  if (!domain || !/^[a-z0-9.-]+$/.test(domain)) throw new AppError('validation', 'Invalid from address');
  return domain;
}

/**
 * `<uuid>@<from domain>`: unique, and on the sender's own domain as RFC 5322 recommends. A UUIDv7, so the
 * ids of messages sent together sit together in the outbox's unique index (time-ordered-id.ts).
 */
export function makeMessageId(fromEmail: string): string {
  return `${timeOrderedUuid()}@${domainOf(checkedAddress(fromEmail, 'from'))}`;
}

/** The mailto half of List-Unsubscribe: an unsubscribe request to the sender's own mailbox (ASCII only). */
export function makeUnsubscribeMailto(fromEmail: string, token: string): string {
  const address = checkedAddress(fromEmail, 'from');
  assertTrackingToken(token);
  const local = address.slice(0, address.lastIndexOf('@'));
  return `mailto:${encodeURIComponent(local)}@${domainOf(address)}?subject=unsubscribe%20${token}`;
}

/**
 * The mailto half for this account, or null when nobody would read the request: an account whose mailbox
 * we do not poll (no IMAP) would leave it unread in the owner's inbox, an unsubscribe never honoured.
 * The https one-click link is always there. The development mailbox stands in for IMAP (its simulator).
 */
export function unsubscribeMailtoFor(
  account: { fromEmail: string; imapEnabled: boolean; isDevMailbox: boolean },
  token: string,
): string | null {
  return account.imapEnabled || account.isDevMailbox ? makeUnsubscribeMailto(account.fromEmail, token) : null;
}

/** Where tracking and unsubscribe links point: the campaign's tracking domain over https, else APP_URL. */
export function resolveTrackingBaseUrl(input: { appUrl: string; trackingDomain?: string | null }): string {
  const domain = input.trackingDomain?.trim();
  if (domain) {
    let host: string;
    try {
      // Tolerates a pasted "https://track.example.com/"; URL also turns an IDN into its ASCII form.
      host = new URL(/^https?:\/\//i.test(domain) ? domain : `https://${domain}`).host;
    } catch {
      throw new AppError('validation', 'Enter the tracking domain as a host name like track.example.com');
    }
    return `https://${host}`;
  }
  return input.appUrl.replace(/\/+$/, '');
}

function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** A postal address typed over several lines, on one: "12 Allen Avenue, Ikeja, Lagos". */
function oneLine(value: string): string {
  return value
    .split(/[\r\n]+/)
    .map((line) => cleanHeaderText(line))
    .filter(Boolean)
    .join(', ');
}

/*
 * The footer: who sent it, their postal address, and a visible unsubscribe link (CAN-SPAM, NDPA, GDPR).
 * A mid grey (#767676) reads at 4.5:1 on white and on black, so it survives every dark mode; no background
 * colour for a client to invert, and the link is underlined, not told apart by colour alone.
 */
/**
 * Why the recipient got it, first line of the footer. Cold outreach says who thought it would interest
 * them; a newsletter or bulk email already carries its own reason in its footer block, so ours only
 * names the sender (two different reasons in one footer read as a contradiction).
 */
function footerReason(senderName: string, kind: CampaignKind): string {
  return kind === 'campaign'
    ? `You received this email because ${senderName} thought it would interest you.`
    : `This email was sent to you by ${senderName}.`;
}

function footerHtml(
  senderName: string,
  postalAddress: string,
  unsubscribeUrl: string,
  kind: CampaignKind,
): string {
  const name = escapeHtml(senderName);
  return (
    '<div style="margin:32px 0 0;padding:16px 0 0;border-top:1px solid #d4d4d4;font-family:Arial,Helvetica,sans-serif;font-size:12px;line-height:18px;color:#767676">' +
    `<p style="margin:0 0 4px">${escapeHtml(footerReason(senderName, kind))}</p>` +
    `<p style="margin:0 0 4px">${name}, ${escapeHtml(postalAddress)}</p>` +
    `<p style="margin:0"><a href="${escapeHtml(unsubscribeUrl)}" style="color:#767676;text-decoration:underline">Unsubscribe</a></p>` +
    '</div>'
  );
}

function footerText(
  senderName: string,
  postalAddress: string,
  unsubscribeUrl: string,
  kind: CampaignKind,
): string {
  return `${footerReason(senderName, kind)}\n${senderName}, ${postalAddress}\nUnsubscribe: ${unsubscribeUrl}`;
}

/** Inserts before the last </body>, else before </html>, else at the end — without copying the body to search it. */
function insertAtEndOfBody(html: string, snippet: string): string {
  let index = html.lastIndexOf('</body');
  if (index === -1) {
    for (const match of html.matchAll(/<\/body/gi)) index = match.index;
  }
  if (index === -1) index = html.lastIndexOf('</html');
  if (index === -1) return html + snippet;
  return html.slice(0, index) + snippet + html.slice(index);
}

const MESSAGE_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}@[A-Za-z0-9.-]{1,253}$/;
// An ASCII mailto: URI with nothing that ends the <…> it sits in or starts a new header.
const MAILTO_PATTERN = /^mailto:[\x21-\x3b\x3d\x3f-\x7e]+$/;

export function buildMailOptions(input: {
  messageId: string;
  token: string;
  /** Not used: links are built on trackingBaseUrl (resolveTrackingBaseUrl falls back to APP_URL). */
  appUrl?: string;
  trackingBaseUrl: string;
  from: { name: string; email: string };
  replyTo: string | null;
  to: { name: string | null; email: string };
  subject: string;
  html: string;
  text: string;
  postalAddress: string;
  senderName: string;
  /** Null: List-Unsubscribe carries the https link only (see unsubscribeMailtoFor). */
  unsubscribeMailto: string | null;
  /** What is being sent (the footer's wording); a cold-outreach campaign when unset. */
  kind?: CampaignKind;
  /** A reply in a thread: the Message-ID answered and the thread's ids (no angle brackets). */
  inReplyTo?: string | null;
  references?: readonly string[] | null;
}): ComposedMail & { disableFileAccess: true; disableUrlAccess: true } {
  const kind = input.kind ?? 'campaign';
  assertTrackingToken(input.token);
  if (!MESSAGE_ID_PATTERN.test(input.messageId)) throw new AppError('validation', 'Invalid Message-ID');
  const thread = input.inReplyTo ? [input.inReplyTo, ...(input.references ?? [])] : [];
  if (thread.some((id) => !MESSAGE_ID_PATTERN.test(id)))
    throw new AppError('validation', 'Invalid Message-ID');
  if (input.unsubscribeMailto !== null && !MAILTO_PATTERN.test(input.unsubscribeMailto)) {
    throw new AppError('validation', 'Invalid unsubscribe mailto address');
  }
  const base = checkedTrackingBase(input.trackingBaseUrl);
  const unsubscribeUrl = `${base}${TRACKING_PATHS.unsubscribe(input.token)}`;

  const senderName = cleanHeaderText(input.senderName, 200);
  const postalAddress = oneLine(input.postalAddress);
  const replyTo = input.replyTo ? checkedAddress(input.replyTo, 'reply-to') : null;

  return {
    // Address objects, never hand-built strings: nodemailer quotes and RFC 2047-encodes the names.
    from: { name: cleanHeaderText(input.from.name, 200), address: checkedAddress(input.from.email, 'from') },
    to: {
      name: cleanHeaderText(input.to.name ?? '', 200),
      address: checkedAddress(input.to.email, 'recipient'),
    },
    ...(replyTo ? { replyTo: { name: '', address: replyTo } } : {}),
    subject: cleanHeaderText(input.subject),
    date: now(),
    messageId: `<${input.messageId}>`,
    ...(input.inReplyTo
      ? {
          inReplyTo: `<${input.inReplyTo}>`,
          references: (input.references?.length ? input.references : [input.inReplyTo]).map(
            (id) => `<${id}>`,
          ),
        }
      : {}),
    headers: {
      'List-Unsubscribe': input.unsubscribeMailto
        ? `<${unsubscribeUrl}>, <${input.unsubscribeMailto}>`
        : `<${unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
    // No HTML part (body format `text`): the footer is in the text part only.
    html:
      input.html === ''
        ? ''
        : insertAtEndOfBody(input.html, footerHtml(senderName, postalAddress, unsubscribeUrl, kind)),
    text: `${input.text.trimEnd()}\n\n${footerText(senderName, postalAddress, unsubscribeUrl, kind)}\n`,
    token: input.token,
    // Strings only ever: never let a body or attachment be read from a path or fetched from a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}
