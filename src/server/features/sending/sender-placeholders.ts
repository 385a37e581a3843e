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

/** What queue-time rendering uses as the sender: `{{ senderName }}` and `{{ senderEmail }}` become placeholders. */
export const SENDER_PLACEHOLDERS = { fromName: NAME, fromEmail: EMAIL } as const;

export interface SenderValues {
  fromName: string;
  fromEmail: string;
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
  return !ANY_MARK.test(text.replaceAll(NAME, '').replaceAll(EMAIL, ''));
}

function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** The text with the sending account's name and address in place of the placeholders. */
export function fillSenderPlaceholders(text: string, sender: SenderValues, mode: 'html' | 'text'): string {
  if (!ANY_MARK.test(text)) return text;
  const name = sender.fromName.trim();
  const email = sender.fromEmail.trim();
  return text
    .replaceAll(NAME, mode === 'html' ? escapeHtml(name) : name)
    .replaceAll(EMAIL, mode === 'html' ? escapeHtml(email) : email);
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
    !hasSenderPlaceholders(message.subject) &&
    !hasSenderPlaceholders(message.html) &&
    !hasSenderPlaceholders(message.text)
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
