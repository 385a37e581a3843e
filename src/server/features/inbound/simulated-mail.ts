import { randomUUID } from 'node:crypto';
import type { SimulatedInboundKind } from '@shared/inbound';

/*
 * Realistic raw mail answering a message we sent, for the development mailbox's "simulate" buttons (and
 * tests): a person's reply, a DSN bounce from MAILER-DAEMON, an Outlook-style out-of-office and an
 * "unsubscribe" reply. They go through exactly the path real mail takes, so what a newcomer sees is
 * what production does.
 */

export interface OriginalMessage {
  /** Without angle brackets. */
  messageId: string;
  subject: string;
  /** Our sender's address, and the contact's. */
  from: string;
  to: string;
  sentAt: Date;
  /** The original's text, quoted in the reply. */
  text?: string | null;
}

const CRLF = '\r\n';

/** Header values are ours to make safe: no CR/LF from the original reaches a header line. */
function headerValue(value: string): string {
  const flat = value.replace(/[\r\n]+/g, ' ').trim();
  return /^[\x20-\x7e]*$/.test(flat) ? flat : `=?UTF-8?B?${Buffer.from(flat, 'utf8').toString('base64')}?=`;
}

function domainOf(address: string): string {
  return address.split('@')[1] ?? 'localhost';
}

function rfc2822Date(date: Date): string {
  return date.toUTCString().replace('GMT', '+0000');
}

function headers(lines: [string, string][]): string {
  return lines.map(([name, value]) => `${name}: ${headerValue(value)}`).join(CRLF);
}

function quote(text: string | null | undefined): string {
  return (text ?? '')
    .split(/\r?\n/)
    .slice(0, 12)
    .map((line) => `> ${line}`)
    .join(CRLF);
}

function longDate(date: Date): string {
  return new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(date);
}

export function buildSimulatedMail(options: {
  kind: SimulatedInboundKind;
  original: OriginalMessage;
  at: Date;
}): string {
  switch (options.kind) {
    case 'reply':
      return buildReply(options.original, options.at, 'Thanks, interested — can we talk Tuesday?');
    case 'unsubscribe':
      return buildReply(options.original, options.at, 'Unsubscribe');
    case 'out_of_office':
      return buildOutOfOffice(options.original, options.at);
    case 'bounce':
      return buildBounce(options.original, options.at);
  }
}

function buildReply(original: OriginalMessage, at: Date, body: string): string {
  const head = headers([
    ['From', original.to],
    ['To', original.from],
    ['Subject', `Re: ${original.subject}`],
    ['Date', rfc2822Date(at)],
    ['Message-ID', `<sim-${randomUUID()}@${domainOf(original.to)}>`],
    ['In-Reply-To', `<${original.messageId}>`],
    ['References', `<${original.messageId}>`],
    ['MIME-Version', '1.0'],
    ['Content-Type', 'text/plain; charset=utf-8'],
    ['Content-Transfer-Encoding', '8bit'],
  ]);
  const text = [
    body,
    '',
    `On ${rfc2822Date(original.sentAt)}, ${original.from} wrote:`,
    quote(original.text),
    '',
  ].join(CRLF);
  return `${head}${CRLF}${CRLF}${text}`;
}

function buildOutOfOffice(original: OriginalMessage, at: Date): string {
  const back = new Date(at.getTime() + 5 * 24 * 60 * 60 * 1000);
  const head = headers([
    ['From', original.to],
    ['To', original.from],
    ['Subject', `Automatic reply: ${original.subject}`],
    ['Date', rfc2822Date(at)],
    ['Message-ID', `<sim-ooo-${randomUUID()}@${domainOf(original.to)}>`],
    ['In-Reply-To', `<${original.messageId}>`],
    ['References', `<${original.messageId}>`],
    ['Auto-Submitted', 'auto-replied'],
    ['X-Auto-Response-Suppress', 'All'],
    ['MIME-Version', '1.0'],
    ['Content-Type', 'text/plain; charset=utf-8'],
  ]);
  const text = [
    'Thank you for your email.',
    '',
    `I am currently out of the office with limited access to email, and I will be back on ${longDate(back)}.`,
    '',
  ].join(CRLF);
  return `${head}${CRLF}${CRLF}${text}`;
}

function buildBounce(original: OriginalMessage, at: Date): string {
  const mta = `mail.${domainOf(original.from)}`;
  const boundary = `=_report_${randomUUID()}`;
  const head = headers([
    ['From', `Mail Delivery System <MAILER-DAEMON@${mta}>`],
    ['To', original.from],
    ['Subject', 'Undelivered Mail Returned to Sender'],
    ['Date', rfc2822Date(at)],
    ['Message-ID', `<sim-dsn-${randomUUID()}@${mta}>`],
    ['Auto-Submitted', 'auto-replied'],
    ['MIME-Version', '1.0'],
    ['Content-Type', `multipart/report; report-type=delivery-status; boundary="${boundary}"`],
  ]);
  const diagnostic = `550 5.1.1 <${original.to}>: Recipient address rejected: User unknown in virtual mailbox table`;
  const parts = [
    'This is a MIME-encapsulated message.',
    '',
    `--${boundary}`,
    'Content-Description: Notification',
    'Content-Type: text/plain; charset=utf-8',
    '',
    `This is the mail system at host ${mta}.`,
    '',
    "I'm sorry to have to inform you that your message could not",
    'be delivered to one or more recipients.',
    '',
    `<${original.to}>: host mx.${domainOf(original.to)} said: ${diagnostic} (in reply to RCPT TO command)`,
    '',
    `--${boundary}`,
    'Content-Description: Delivery report',
    'Content-Type: message/delivery-status',
    '',
    `Reporting-MTA: dns; ${mta}`,
    `Arrival-Date: ${rfc2822Date(original.sentAt)}`,
    '',
    `Final-Recipient: rfc822; ${original.to}`,
    `Original-Recipient: rfc822;${original.to}`,
    'Action: failed',
    'Status: 5.1.1',
    `Remote-MTA: dns; mx.${domainOf(original.to)}`,
    `Diagnostic-Code: smtp; ${diagnostic}`,
    '',
    `--${boundary}`,
    'Content-Description: Undelivered Message Headers',
    'Content-Type: text/rfc822-headers',
    '',
    headers([
      ['From', original.from],
      ['To', original.to],
      ['Subject', original.subject],
      ['Date', rfc2822Date(original.sentAt)],
      ['Message-ID', `<${original.messageId}>`],
    ]),
    '',
    `--${boundary}--`,
    '',
  ].join(CRLF);
  return `${head}${CRLF}${CRLF}${parts}`;
}
