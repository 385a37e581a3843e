import { simpleParser } from 'mailparser';
import MailComposer from 'nodemailer/lib/mail-composer';
import { foldLines } from 'nodemailer/lib/mime-funcs';
import MimeNode from 'nodemailer/lib/mime-node';
import DataStream from 'nodemailer/lib/smtp-connection/data-stream';
import { describe, expect, it } from 'vitest';
import { isVouchedCrlfOnly } from '../sender-accounts/sender-accounts.service';
import { buildMailOptions, makeUnsubscribeMailto } from './message-envelope';
import {
  type ComposedMail,
  composeRawMessage,
  composeRawMessageFromParts,
  headerLine,
  multipartContentType,
  type PartTemplate,
} from './raw-message';

const TOKEN = 'Xy3_kP9-aQ2mN7wL1zR5tA';

function mail(overrides: Partial<Parameters<typeof buildMailOptions>[0]> = {}): ComposedMail {
  return buildMailOptions({
    messageId: '0b6b1b8e-2f6b-4c1e-9a59-3d1c1f0e6a77@sender.ng',
    token: TOKEN,
    trackingBaseUrl: 'https://track.example.com',
    from: { name: 'Ada Obi', email: 'ada@sender.ng' },
    replyTo: 'replies@sender.ng',
    to: { name: 'Tunde Bakare', email: 'tunde@example.com' },
    subject: 'Quick question',
    html: '<html><body><p>Hello Tunde</p></body></html>',
    text: 'Hello Tunde',
    postalAddress: '12 Allen Avenue, Ikeja, Lagos',
    senderName: 'Ada Obi',
    unsubscribeMailto: makeUnsubscribeMailto('ada@sender.ng', TOKEN),
    ...overrides,
  });
}

/** Header fields (each with its folded continuation lines) and the body, the boundary replaced. */
function parts(raw: string): { fields: string[]; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  const fields = raw.slice(0, end).split(/\r\n(?![ \t])/);
  const contentType = fields.find((field) => /^content-type:/i.test(field))!;
  const boundary = /boundary="([^"]+)"/.exec(contentType.replace(/\r\n[ \t]+/g, ' '))![1]!;
  return {
    // The boundary's length decides where Content-Type folds, so that one field is compared unfolded.
    fields: fields
      .map((field) =>
        field === contentType ? field.replace(/\r\n[ \t]+/g, ' ').replaceAll(boundary, 'BOUNDARY') : field,
      )
      .sort(),
    body: raw.slice(end).replaceAll(boundary, 'BOUNDARY'),
  };
}

async function nodemailerRaw(composed: ComposedMail): Promise<string> {
  return (await new MailComposer(composed).compile().build()).toString('utf8');
}

/** A message as the SMTP connection sends it after DATA: bare CR and LF as CRLF, leading dots doubled. */
async function onTheWire(raw: Buffer | string): Promise<string> {
  const stream = new DataStream();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => stream.on('end', resolve));
  stream.end(raw);
  await ended;
  return Buffer.concat(chunks).toString('utf8');
}

const BARE_LINE_END = /\r(?!\n)|(?<!\r)\n/;

const arabic = 'مرحبا بكم في متجرنا. نحن نوصل الخضروات الطازجة إلى المطاعم في كانو كل صباح.';

const cases: Record<string, Partial<Parameters<typeof buildMailOptions>[0]>> = {
  'plain ASCII': {},
  'no Reply-To, no mailto unsubscribe': { replyTo: null, unsubscribeMailto: null },
  'Yoruba and quoted names, an internationalised domain, a long subject with a dash': {
    from: { name: 'Ọlá Àdìgún', email: 'ola@jõgeva.ee' },
    to: { name: 'Chidi "CJ" Eze (Lagos)', email: 'cj@x.ng' },
    subject: `Hello – ${'a long subject line that goes on '.repeat(6)}`,
  },
  'emoji and Arabic subject, Arabic body (base64)': {
    subject: `🚀 ${arabic}`,
    to: { name: 'عمر', email: 'omar@example.com' },
    html: `<html dir="rtl"><body><p>${arabic}</p></body></html>`,
    text: arabic,
  },
  'long HTML lines and accents (quoted-printable)': {
    html: `<p>${'Café Déjà vu — crème brûlée. '.repeat(40)}</p>\n<p>=equals= and trailing space \n\ttab</p>`,
    text: `Line with trailing spaces   \nCafé\n.leading dot\nFrom the start\r\nCRLF\rbare CR`,
  },
  'an empty subject': { subject: '' },
  'a reply in a long thread (In-Reply-To, folded References)': {
    subject: 'Re: Quick question',
    inReplyTo: '7d2c1f0e-6a77-4c1e-9a59-0b6b1b8e2f6b@sender.ng',
    references: [
      ...Array.from({ length: 8 }, (_, i) => `${i}b6b1b8e-2f6b-4c1e-9a59-3d1c1f0e6a77@sender.ng`),
      '7d2c1f0e-6a77-4c1e-9a59-0b6b1b8e2f6b@sender.ng',
    ],
  },
  'control characters in the body': { text: 'a\u0000b\u0007c\u001bd', html: '<p>x\u0000y</p>' },
  'header injection attempts': {
    from: { name: 'Evil\r\nBcc: victim@example.org', email: 'ada@sender.ng' },
    subject: 'Hello\r\nBcc: victim@example.org\u2028Cc: other@example.org',
  },
};

describe('composeRawMessage', () => {
  for (const [name, overrides] of Object.entries(cases)) {
    it(`sends the bytes MailComposer's message sends: ${name}`, async () => {
      const composed = mail(overrides);
      const ours = await onTheWire(composeRawMessage(composed));
      const theirs = await onTheWire(await nodemailerRaw(composed));
      expect(parts(ours).fields).toEqual(parts(theirs).fields);
      expect(parts(ours).body).toEqual(parts(theirs).body);
    });
  }

  it('never gives a message a header line remembered for another (From, Reply-To, Subject, Date)', async () => {
    const variants = [
      {},
      { from: { name: 'Ọlá Àdìgún', email: 'ola@sender.ng' }, subject: 'Ẹ kú àárọ̀' },
      { from: { name: 'Ada Obi', email: 'ada2@sender.ng' }, replyTo: 'other@sender.ng' },
      { subject: 'Quick question!' },
    ];
    for (let round = 0; round < 2; round++) {
      for (const [i, overrides] of variants.entries()) {
        const composed = { ...mail(overrides), date: new Date(Date.UTC(2026, 10, 28, 9, 0, i, round * 999)) };
        const ours = await onTheWire(composeRawMessage(composed));
        const theirs = await onTheWire(await nodemailerRaw(composed));
        expect(parts(ours).fields).toEqual(parts(theirs).fields);
      }
    }
  });

  it('reads back intact in a mail parser', async () => {
    const composed = mail(cases['emoji and Arabic subject, Arabic body (base64)']);
    const parsed = await simpleParser(composeRawMessage(composed));
    expect(parsed.subject).toBe(`🚀 ${arabic}`);
    expect(parsed.messageId).toBe('<0b6b1b8e-2f6b-4c1e-9a59-3d1c1f0e6a77@sender.ng>');
    expect(parsed.to).toMatchObject({ value: [{ address: 'omar@example.com', name: 'عمر' }] });
    expect(parsed.text).toContain(arabic);
    expect(parsed.html).toContain(`<p>${arabic}</p>`);
  });

  it('reads back as MailComposer output does for a body larger than its 64 kB encoding slices', async () => {
    // Past 64 kB nodemailer's streaming encoder restarts its soft line breaks at each slice, so the
    // bytes differ in where lines wrap (both valid quoted-printable) but never in what they decode to.
    const composed = mail({ html: `<p>${'Fresh produce for your kitchen — Kano. '.repeat(10_000)}</p>` });
    const ours = await simpleParser(composeRawMessage(composed));
    const theirs = await simpleParser(await nodemailerRaw(composed));
    expect(ours.html).toBe(theirs.html);
    expect(ours.text).toBe(theirs.text);
    expect(ours.html).toContain('Kano. </p><div style=');
  });

  it('writes only ASCII, in lines of at most 78 characters (76 in encoded parts), with a fresh boundary each time', () => {
    const composed = mail(
      cases['Yoruba and quoted names, an internationalised domain, a long subject with a dash'],
    );
    const raw = composeRawMessage(composed).toString('utf8');
    expect(/[^\t\r\n\x20-\x7e]/.test(raw)).toBe(false);
    // Line ends as the connection sends them, so it has none to rewrite.
    expect(BARE_LINE_END.test(raw)).toBe(false);
    for (const line of raw.split(/\r\n|\n/)) expect(line.length).toBeLessThanOrEqual(78);
    expect(parts(raw).fields.some((field) => field.startsWith('From: =?UTF-8?'))).toBe(true);
    expect(raw).toContain('<ola@xn--jgeva-dua.ee>');
    const boundaryOf = (text: string) => /boundary="([^"]+)"/.exec(text.replace(/\r\n[ \t]+/g, ' '))![1];
    expect(boundaryOf(raw)).not.toBe(boundaryOf(composeRawMessage(composed).toString('utf8')));
  });
});

/** A part template by hand: literals around one hole for the whole token. */
function template(before: string, after: string, crlfOnly: boolean): PartTemplate {
  const literals = [Buffer.from(before, 'latin1'), Buffer.from(after, 'latin1')];
  return { literals, holes: [0, TOKEN.length], bytes: before.length + after.length, crlfOnly };
}

describe('composeRawMessageFromParts', () => {
  const head = 'Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 7bit\r\n\r\n';

  it('vouches to the SMTP connection for a message whose pieces have no bare line end, dots left to stuff', () => {
    const parts = {
      text: template(`${head}.Hello `, '\r\n.\r\nBye', true),
      html: template(`${head.replace('plain', 'html')}<p>`, '</p>', true),
    };
    const raw = composeRawMessageFromParts(mail(), parts, TOKEN);
    expect(isVouchedCrlfOnly(raw)).toBe(true);
    const text = raw.toString('latin1');
    expect(text).toContain(`\r\n.Hello ${TOKEN}\r\n.\r\nBye\r\n--`);
    expect(/\r(?!\n)|(?<!\r)\n/.test(text)).toBe(false);
    expect(
      isVouchedCrlfOnly(composeRawMessageFromParts(mail(), { text: parts.text, html: null }, TOKEN)),
    ).toBe(true);
  });

  it('does not vouch when a template or the token has a bare line end', () => {
    const clean = template(`${head}Hello `, '\r\nBye', true);
    const bare = template(`${head}Hello `, '\nBye', false);
    expect(isVouchedCrlfOnly(composeRawMessageFromParts(mail(), { text: bare, html: clean }, TOKEN))).toBe(
      false,
    );
    expect(isVouchedCrlfOnly(composeRawMessageFromParts(mail(), { text: clean, html: bare }, TOKEN))).toBe(
      false,
    );
    expect(isVouchedCrlfOnly(composeRawMessageFromParts(mail(), { text: bare, html: null }, TOKEN))).toBe(
      false,
    );
    const oddToken = `${TOKEN.slice(0, -1)}\n`;
    expect(
      isVouchedCrlfOnly(composeRawMessageFromParts(mail(), { text: clean, html: clean }, oddToken)),
    ).toBe(false);
  });
});

describe('header lines written without the encoder', () => {
  const encoder = new MimeNode(false);
  const viaEncoder = (key: string, value: string) =>
    foldLines(`${key}: ${encoder.encodeHeaderValue(key, value)}`, 76);

  it('are the lines the encoder gives, for plain values and for every value it would change', () => {
    const unsubscribe = [
      '<https://track.example.com/u/Xy3_kP9-aQ2mN7wL1zR5tA>',
      `<https://track.example.com/u/Xy3_kP9-aQ2mN7wL1zR5tA>, <${makeUnsubscribeMailto('ada@sender.ng', TOKEN)}>`,
      `<https://${'long.'.repeat(30)}example.com/u/${TOKEN}>, <mailto:a@b.ng?subject=unsubscribe%20${TOKEN}>`,
      '<mailto:"quoted"@b.ng>',
      '<mailto:a@b.ng?subject==?utf-8?Q?x?=>',
      '<mailto:é@b.ng>',
      'tab\there',
      'line\r\nbreak',
      '',
      '  spaced  ',
    ];
    for (const value of unsubscribe)
      expect(headerLine('List-Unsubscribe', value)).toBe(viaEncoder('List-Unsubscribe', value));
    const ids = [
      `<0b6b1b8e-2f6b-4c1e-9a59-3d1c1f0e6a77@${'sub.'.repeat(20)}sender.ng>`,
      '<a@b>',
      '<>',
      '<',
      'a@b',
      '<a@b',
      '<a\tb@c>',
      '<a\r\nb@c>',
      '<a\u0000b@c>',
      '<é@c>',
    ];
    for (const value of ids) {
      expect(headerLine('Message-ID', value)).toBe(viaEncoder('Message-ID', value));
      expect(headerLine('In-Reply-To', value)).toBe(viaEncoder('In-Reply-To', value));
    }
  });

  it('fold the multipart Content-Type around any boundary as foldLines does', () => {
    const line = (boundary: string) =>
      foldLines(`Content-Type: multipart/alternative; boundary="${boundary}"`, 76);
    for (let i = 0; i < 200; i++) {
      const boundary = `=_tambari_${crypto.randomUUID()}`;
      expect(multipartContentType(boundary)).toBe(line(boundary));
    }
    for (const boundary of ['short', `=_tambari_${'x'.repeat(80)}`, `=_tambari_${'a b'.repeat(12)}a`]) {
      expect(multipartContentType(boundary)).toBe(line(boundary));
    }
  });
});
