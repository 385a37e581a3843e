/*
 * Which account sends a message is decided at the moment of sending (Least Used rotation, caps, a paused
 * account), long after the message was rendered at queue time. So the sender's own values cannot be
 * rendered then: a queued message carries placeholders for them, and the dispatcher fills them with the
 * values of the account that really sends it — the From line, the signature and the footer always name
 * the same person.
 *
 * The placeholders are Private Use Area characters: no contact data, template text or Liquid filter
 * produces or changes them (no case, no spaces, no HTML escaping), so they survive rendering, spintax,
 * tracking and the text part intact, and a template that cuts or rearranges them is detected.
 */

const OPEN = '\uE000';
const CLOSE = '\uE00F';
const NAME = `${OPEN}\uE001${CLOSE}`;
const EMAIL = `${OPEN}\uE002${CLOSE}`;
const COMPANY = `${OPEN}\uE003${CLOSE}`;
/*
 * The company may be empty, so `{{ senderCompany | default: "our team" }}` cannot be decided at queue time:
 * the tag becomes this marker around its fallback (already in the form of its part: escaped in HTML), and
 * the fill uses the fallback when the sending account names no company.
 */
const COMPANY_OR = `${OPEN}\uE004`;
const COMPANY_OR_PATTERN = /\uE000\uE004([^\uE000-\uE00F]*)\uE00F/g;

/** What queue-time rendering uses as the sender: `{{ senderName }}`, `{{ senderEmail }}` and `{{ senderCompany }}` become placeholders. */
export const SENDER_PLACEHOLDERS = { fromName: NAME, fromEmail: EMAIL, company: COMPANY } as const;

/** The marker `{{ senderCompany | default: "…" }}` becomes at queue time (see COMPANY_OR). */
export function senderCompanyOr(fallback: string): string {
  return `${COMPANY_OR}${fallback.replace(/[\uE000-\uE00F]/g, '')}${CLOSE}`;
}

export interface SenderValues {
  fromName: string;
  fromEmail: string;
  /** The account's company; null or empty: none (the tag renders empty, or its fallback). */
  company?: string | null;
}

const ANY_MARK = /[\uE000-\uE00F]/;

/** Whether a rendered text still holds a placeholder (or a piece of one). */
export function hasSenderPlaceholders(text: string | null | undefined): boolean {
  return typeof text === 'string' && ANY_MARK.test(text);
}

/**
 * True when every placeholder character in `text` belongs to a whole placeholder: a template that applied
 * a filter such as `truncate` or `slice` to the sender's name leaves pieces, and then the message must be
 * rendered with a real account instead (the caller binds it to that account).
 */
export function placeholdersIntact(text: string): boolean {
  if (!ANY_MARK.test(text)) return true;
  return !ANY_MARK.test(
    text.replaceAll(NAME, '').replaceAll(EMAIL, '').replaceAll(COMPANY, '').replace(COMPANY_OR_PATTERN, ''),
  );
}

function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/*
 * Whether filling could change a text: every placeholder it fills (NAME, EMAIL, COMPANY, COMPANY_OR)
 * starts with OPEN, so a text without one comes back as it is. Looking for one character is a fast
 * search, where the class in ANY_MARK is tried at every position: some 30 µs for a 12 kB body that
 * holds any character beyond Latin-1 (a curly quote), three times a message at dispatch.
 */
function mayHoldPlaceholders(text: string | null | undefined): boolean {
  return typeof text === 'string' && text.includes(OPEN);
}

/** The text with the sending account's name, address and company in place of the placeholders. */
export function fillSenderPlaceholders(text: string, sender: SenderValues, mode: 'html' | 'text'): string {
  if (!mayHoldPlaceholders(text)) return text;
  const name = sender.fromName.trim();
  const email = sender.fromEmail.trim();
  const company = sender.company?.trim() ?? '';
  const shown = (value: string) => (mode === 'html' ? escapeHtml(value) : value);
  return text
    .replaceAll(NAME, shown(name))
    .replaceAll(EMAIL, shown(email))
    .replaceAll(COMPANY, shown(company))
    .replace(COMPANY_OR_PATTERN, (_, fallback: string) => (company ? shown(company) : fallback));
}

/**
 * A stored message (subject and bodies) as the given account sends it. Links that hold the sender's
 * values are left untracked at queue time (message-content.ts), so they are filled here with the rest.
 */
export function withSenderValues<T extends { subject: string; html: string; text: string | null }>(
  message: T,
  sender: SenderValues,
): T {
  if (
    !mayHoldPlaceholders(message.subject) &&
    !mayHoldPlaceholders(message.html) &&
    !mayHoldPlaceholders(message.text)
  ) {
    return message;
  }
  return {
    ...message,
    subject: fillSenderPlaceholders(message.subject, sender, 'text'),
    html: fillSenderPlaceholders(message.html, sender, 'html'),
    text: message.text === null ? null : fillSenderPlaceholders(message.text, sender, 'text'),
  };
}
