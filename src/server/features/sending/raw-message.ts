import { randomUUID } from 'node:crypto';
import { foldLines } from 'nodemailer/lib/mime-funcs';
import MimeNode from 'nodemailer/lib/mime-node';
import { vouchCrlfOnly } from '../sender-accounts/sender-accounts.service';
import { encodeTextBody, type TransferEncoding } from './text-part-body';

/*
 * A campaign message as one finished RFC 5322 byte string, handed to nodemailer's pooled transport as
 * `raw`. Why not let nodemailer compose it: its composer streams every MIME part through its own
 * pipeline of transforms (a stream, an encoder, a pipeline() and its abort signal per part, the output
 * written in many small chunks), which made up most of a dispatch worker's CPU at 1,000+ messages a
 * second. Our messages are always the same shape — text and HTML alternatives, no attachments — so the
 * whole thing is a few string operations.
 *
 * Every encoding is still nodemailer's own, through its public helpers: address and header encoding
 * (RFC 2047 words, punycode domains, quoted names), line folding, quoted-printable and base64, and its
 * rule for choosing between 7bit, quoted-printable and base64. raw-message.test.ts checks that the bytes
 * match what MailComposer writes for the same mail, hostile inputs included, once both are as the SMTP
 * connection sends them. Line ends inside the bodies are already CRLF (what the connection would make
 * of them anyway); it still dot-stuffs lines, for raw messages as for composed ones.
 */

export interface MailAddress {
  name: string;
  address: string;
}

/** What buildMailOptions makes: a message with text and HTML alternatives and no attachments. */
export interface ComposedMail {
  from: MailAddress;
  to: MailAddress;
  replyTo?: MailAddress;
  subject: string;
  date: Date;
  /** With its angle brackets, as in the header. */
  messageId: string;
  /** A reply in a thread: the Message-ID answered and the thread's ids, with their angle brackets. */
  inReplyTo?: string;
  references?: string[];
  headers: Record<string, string>;
  /** Empty: a plain-text-only message (body format `text`). */
  html: string;
  text: string;
  /**
   * The outbox token, when the bodies carry one: the only text that differs between the copies of one
   * message, which lets their encoding be reused (text-part-body.ts).
   */
  token?: string;
}

// Stateless apart from its options: encodeHeaderValue reads none of a node's own headers or content.
const headerEncoder = new MimeNode(false);

/*
 * Values the encoder would hand back as they are, recognised without it (its key normalisation and
 * scans were most of what a per-message header line cost): for List-Unsubscribe, an unstructured
 * header, printable ASCII without a quote or an "=?" (no encoded word needed: mime-node's
 * _encodeHeaderText and mime-funcs' encodeWords return such a value unchanged); for a Message-ID or
 * In-Reply-To, one "<…>" of printable ASCII (nothing to strip, the brackets already there). Anything
 * else goes through the encoder. raw-message.test.ts holds the two ways to the same lines.
 */
const PLAIN_UNSTRUCTURED_VALUE = /^[\x20\x21\x23-\x7e]*$/;
const PLAIN_MESSAGE_ID_VALUE = /^<[\x20-\x7e]*>$/;

function asIs(key: string, value: string): boolean {
  if (key === 'List-Unsubscribe') return PLAIN_UNSTRUCTURED_VALUE.test(value) && !value.includes('=?');
  if (key === 'Message-ID' || key === 'In-Reply-To') return PLAIN_MESSAGE_ID_VALUE.test(value);
  return false;
}

export function headerLine(key: string, value: string | MailAddress | Date): string {
  const encoded =
    typeof value === 'string' && asIs(key, value) ? value : headerEncoder.encodeHeaderValue(key, value);
  return foldLines(`${key}: ${encoded}`, 76);
}

/*
 * Header lines that repeat from message to message (an account's From, a newsletter's Subject, a
 * Date within one second) are encoded once: address parsing and RFC 2047 encoding were a fifth of
 * composing a message. A line depends on nothing but its name and value, which are the key.
 */
const repeatedLines = new Map<string, string>();
const REPEATED_LINES_MAX = 2_000;

function repeatedHeaderLine(key: string, value: string | MailAddress | Date): string {
  const id =
    typeof value === 'string'
      ? `${key}\n${value}`
      : value instanceof Date
        ? // The header names the second.
          `${key}\n${Math.floor(value.getTime() / 1000)}`
        : `${key}\n${value.name}\n${value.address}`;
  let line = repeatedLines.get(id);
  if (line === undefined) {
    // Personalised subjects would fill it for good: start again instead of keeping the oldest.
    if (repeatedLines.size >= REPEATED_LINES_MAX) repeatedLines.clear();
    line = headerLine(key, value);
    repeatedLines.set(id, line);
  }
  return line;
}

/** A text part's own headers, before its encoded body. */
function partHead(contentType: 'text/plain' | 'text/html', encoding: string): string {
  return `Content-Type: ${contentType}; charset=utf-8\r\nContent-Transfer-Encoding: ${encoding}\r\n\r\n`;
}

/** One text part: its headers and its encoded body (text-part-body.ts), as MimeNode writes a string part. */
function textPart(
  contentType: 'text/plain' | 'text/html',
  content: string,
  token: string | undefined,
): string {
  const { encoding, body } = encodeTextBody(content, token);
  return partHead(contentType, encoding) + body;
}

/**
 * A part with the encoding MimeNode would choose for `content` alone, not looked up among remembered
 * bodies: what shared-body-parts.ts makes its templates from and checks them against.
 */
export function encodedPart(
  contentType: 'text/plain' | 'text/html',
  content: string,
): { encoding: TransferEncoding; part: string } {
  const { encoding, body } = encodeTextBody(content);
  return { encoding, part: partHead(contentType, encoding) + body };
}

/**
 * A boundary that cannot occur in a quoted-printable or base64 body ("=_" is neither) nor by chance in
 * 7bit text. randomUUID draws from a cached block of entropy; randomBytes would be a call into OpenSSL
 * for every message.
 */
function newBoundary(): string {
  return `=_tambari_${randomUUID()}`;
}

/*
 * The multipart Content-Type line, folded as foldLines folds it. Every boundary has the same length and
 * no white space (foldLines breaks only at white space, never inside a word), so the line folds at the
 * same place for all of them: folded once around a stand-in, the boundary is written into the gap.
 */
const BOUNDARY_STAND_IN = `=_tambari_${'0'.repeat(36)}`;
const [contentTypeBefore, contentTypeAfter] = foldLines(
  `Content-Type: multipart/alternative; boundary="${BOUNDARY_STAND_IN}"`,
  76,
).split(BOUNDARY_STAND_IN) as [string, string];

export function multipartContentType(boundary: string): string {
  return boundary.length === BOUNDARY_STAND_IN.length && !/\s/.test(boundary)
    ? contentTypeBefore + boundary + contentTypeAfter
    : foldLines(`Content-Type: multipart/alternative; boundary="${boundary}"`, 76);
}

/** The message's header lines (all but the multipart Content-Type): what varies from copy to copy. */
function headerLines(mail: Omit<ComposedMail, 'html' | 'text'>): string[] {
  return [
    repeatedHeaderLine('Date', mail.date),
    repeatedHeaderLine('From', mail.from),
    headerLine('To', mail.to),
    ...(mail.replyTo ? [repeatedHeaderLine('Reply-To', mail.replyTo)] : []),
    // No subject, no header: what MailComposer does too.
    ...(mail.subject ? [repeatedHeaderLine('Subject', mail.subject)] : []),
    headerLine('Message-ID', mail.messageId),
    ...(mail.inReplyTo ? [headerLine('In-Reply-To', mail.inReplyTo)] : []),
    ...(mail.references?.length ? [headerLine('References', mail.references.join(' '))] : []),
    ...Object.entries(mail.headers).map(([key, value]) =>
      key === 'List-Unsubscribe-Post' ? repeatedHeaderLine(key, value) : headerLine(key, value),
    ),
    'MIME-Version: 1.0',
  ];
}

export function composeRawMessage(mail: ComposedMail): Buffer {
  const headers = headerLines(mail);
  if (mail.html === '') {
    // Body format `text`: one text/plain part, no multipart wrapper.
    return Buffer.from(
      `${headers.join('\r\n')}\r\n${textPart('text/plain', mail.text, mail.token)}\r\n`,
      'utf8',
    );
  }
  const boundary = newBoundary();
  headers.push(multipartContentType(boundary));
  const message =
    `${headers.join('\r\n')}\r\n\r\n` +
    `--${boundary}\r\n${textPart('text/plain', mail.text, mail.token)}\r\n` +
    `--${boundary}\r\n${textPart('text/html', mail.html, mail.token)}\r\n` +
    `--${boundary}--\r\n`;
  return Buffer.from(message, 'utf8');
}

/**
 * An encoded part (its headers and body) with holes where a copy's token goes: ASCII literals, and
 * between each two the token's characters [from, to) (holes holds the pairs).
 */
export interface PartTemplate {
  literals: Buffer[];
  holes: number[];
  /** The literals' bytes together. */
  bytes: number;
  /** No literal has a bare CR or LF (hasBareLineEnd), so a message made of it can be vouched for. */
  crlfOnly: boolean;
}

/** A CR not followed by LF, or an LF not preceded by CR, the text's ends included. */
const BARE_LINE_END = /\r(?!\n)|(?<!\r)\n/;

/**
 * Whether `text` has a CR or LF outside a CRLF. Judged piece by piece, a message whose pieces have none
 * has none either: a CRLF cut between two pieces counts as bare in both, which only errs towards looking.
 */
export function hasBareLineEnd(text: string): boolean {
  return BARE_LINE_END.test(text);
}

function filledLength(part: PartTemplate): number {
  let n = part.bytes;
  for (let i = 0; i < part.holes.length; i += 2) n += part.holes[i + 1]! - part.holes[i]!;
  return n;
}

function writePart(out: Buffer, at: number, part: PartTemplate, token: string): number {
  const { literals, holes } = part;
  at += literals[0]!.copy(out, at);
  for (let i = 0; i < holes.length; i += 2) {
    const from = holes[i]!;
    const to = holes[i + 1]!;
    at += out.write(from === 0 && to === token.length ? token : token.slice(from, to), at, 'latin1');
    at += literals[i / 2 + 1]!.copy(out, at);
  }
  return at;
}

/**
 * composeRawMessage for a message whose parts were encoded once for many copies (shared-body-parts.ts):
 * the same bytes, written straight into one Buffer instead of joined as strings first. `token` (ASCII,
 * [A-Za-z0-9_-]) fills the parts' holes; `html` null is a plain-text-only message.
 */
export function composeRawMessageFromParts(
  mail: Omit<ComposedMail, 'html' | 'text'>,
  parts: { text: PartTemplate; html: PartTemplate | null },
  token: string,
): Buffer {
  const headers = headerLines(mail);
  if (parts.html === null) {
    const head = `${headers.join('\r\n')}\r\n`;
    const headBytes = Buffer.byteLength(head, 'utf8');
    const out = Buffer.allocUnsafe(headBytes + filledLength(parts.text) + 2);
    let at = out.write(head, 0, 'utf8');
    at = writePart(out, at, parts.text, token);
    out.write('\r\n', at, 'latin1');
    return vouchedIfCrlfOnly(out, parts, head, token);
  }
  const boundary = newBoundary();
  headers.push(multipartContentType(boundary));
  const head = `${headers.join('\r\n')}\r\n\r\n--${boundary}\r\n`;
  const middle = `\r\n--${boundary}\r\n`;
  const end = `\r\n--${boundary}--\r\n`;
  const headBytes = Buffer.byteLength(head, 'utf8');
  const out = Buffer.allocUnsafe(
    headBytes + filledLength(parts.text) + middle.length + filledLength(parts.html) + end.length,
  );
  let at = out.write(head, 0, 'utf8');
  at = writePart(out, at, parts.text, token);
  at += out.write(middle, at, 'latin1');
  at = writePart(out, at, parts.html, token);
  out.write(end, at, 'latin1');
  return vouchedIfCrlfOnly(out, parts, head, token);
}

/**
 * The SMTP connection need not search the message for bare line ends when none of its pieces has one
 * (the parts' literals were judged once per template; the boundary lines have none).
 */
function vouchedIfCrlfOnly(
  out: Buffer,
  parts: { text: PartTemplate; html: PartTemplate | null },
  head: string,
  token: string,
): Buffer {
  const crlfOnly =
    parts.text.crlfOnly && (parts.html?.crlfOnly ?? true) && !hasBareLineEnd(head) && !hasBareLineEnd(token);
  return crlfOnly ? vouchCrlfOnly(out) : out;
}
