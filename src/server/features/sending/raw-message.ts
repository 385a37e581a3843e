import { randomUUID } from 'node:crypto';
import * as base64 from 'nodemailer/lib/base64';
import { foldLines, hasLongerLines, isPlainText } from 'nodemailer/lib/mime-funcs';
import MimeNode from 'nodemailer/lib/mime-node';
import * as qp from 'nodemailer/lib/qp';

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
 * match what MailComposer writes for the same mail, hostile inputs included. Line endings inside the
 * bodies are left as they are: the SMTP connection normalises them to CRLF and dot-stuffs lines, for
 * raw messages as for composed ones.
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
}

// Stateless apart from its options: encodeHeaderValue reads none of a node's own headers or content.
const headerEncoder = new MimeNode(false);

function headerLine(key: string, value: string | MailAddress | Date): string {
  return foldLines(`${key}: ${headerEncoder.encodeHeaderValue(key, value)}`, 76);
}

/**
 * 'Q' when Latin letters outnumber the non-ASCII and control characters, else 'B' — nodemailer's rule
 * (MimeNode#_getTextEncoding, not part of its public interface), so Yoruba or French text stays
 * readable quoted-printable and Arabic or Amharic is not tripled in size by it.
 */
function preferredTextEncoding(value: string): 'Q' | 'B' {
  let nonLatin = 0;
  let latin = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code <= 0x08 || code === 0x0b || code === 0x0c || (code >= 0x0e && code <= 0x1f) || code >= 0x80) {
      nonLatin++;
    } else if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) {
      latin++;
    }
  }
  return nonLatin < latin ? 'Q' : 'B';
}

/** One text part: its headers and its encoded body, encoded the way MimeNode would for a string. */
function textPart(contentType: 'text/plain' | 'text/html', content: string): string {
  let encoding: '7bit' | 'quoted-printable' | 'base64';
  let body: string;
  if (isPlainText(content) && !hasLongerLines(content, 76)) {
    encoding = '7bit';
    body = content;
  } else if (preferredTextEncoding(content) === 'Q') {
    encoding = 'quoted-printable';
    body = qp.wrap(qp.encode(content), 76);
  } else {
    encoding = 'base64';
    body = base64.wrap(base64.encode(content), 76);
  }
  return `Content-Type: ${contentType}; charset=utf-8\r\nContent-Transfer-Encoding: ${encoding}\r\n\r\n${body}`;
}

/**
 * A boundary that cannot occur in a quoted-printable or base64 body ("=_" is neither) nor by chance in
 * 7bit text. randomUUID draws from a cached block of entropy; randomBytes would be a call into OpenSSL
 * for every message.
 */
function newBoundary(): string {
  return `=_tambari_${randomUUID()}`;
}

export function composeRawMessage(mail: ComposedMail): Buffer {
  const boundary = newBoundary();
  const headers = [
    headerLine('Date', mail.date),
    headerLine('From', mail.from),
    headerLine('To', mail.to),
    ...(mail.replyTo ? [headerLine('Reply-To', mail.replyTo)] : []),
    // No subject, no header: what MailComposer does too.
    ...(mail.subject ? [headerLine('Subject', mail.subject)] : []),
    headerLine('Message-ID', mail.messageId),
    ...(mail.inReplyTo ? [headerLine('In-Reply-To', mail.inReplyTo)] : []),
    ...(mail.references?.length ? [headerLine('References', mail.references.join(' '))] : []),
    ...Object.entries(mail.headers).map(([key, value]) => headerLine(key, value)),
    'MIME-Version: 1.0',
  ];
  if (mail.html === '') {
    // Body format `text`: one text/plain part, no multipart wrapper.
    return Buffer.from(`${headers.join('\r\n')}\r\n${textPart('text/plain', mail.text)}\r\n`, 'utf8');
  }
  headers.push(foldLines(`Content-Type: multipart/alternative; boundary="${boundary}"`, 76));
  const message =
    `${headers.join('\r\n')}\r\n\r\n` +
    `--${boundary}\r\n${textPart('text/plain', mail.text)}\r\n` +
    `--${boundary}\r\n${textPart('text/html', mail.html)}\r\n` +
    `--${boundary}--\r\n`;
  return Buffer.from(message, 'utf8');
}
