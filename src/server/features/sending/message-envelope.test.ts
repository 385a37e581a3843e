import { AppError } from '@server/lib/errors';
import { simpleParser } from 'mailparser';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  buildMailOptions,
  cleanHeaderText,
  makeMessageId,
  makeUnsubscribeMailto,
  resolveTrackingBaseUrl,
  unsubscribeMailtoFor,
} from './message-envelope';
import { type ComposedMail, composeRawMessage } from './raw-message';

const TOKEN = 'Xy3_kP9-aQ2mN7wL1zR5tA';
const BASE = 'https://track.example.com';

function options(overrides: Partial<Parameters<typeof buildMailOptions>[0]> = {}) {
  return buildMailOptions({
    messageId: '0b6b1b8e-2f6b-4c1e-9a59-3d1c1f0e6a77@sender.ng',
    token: TOKEN,
    appUrl: 'http://localhost:3000',
    trackingBaseUrl: BASE,
    from: { name: 'Ada Obi', email: 'ada@sender.ng' },
    replyTo: 'replies@sender.ng',
    to: { name: 'Tunde Bakare', email: 'tunde@example.com' },
    subject: 'Quick question',
    html: '<!DOCTYPE html><html><head><title>x</title></head><body><p>Hello Tunde</p></body></html>',
    text: 'Hello Tunde',
    postalAddress: '12 Allen Avenue\nIkeja, Lagos',
    senderName: 'Ada Obi',
    unsubscribeMailto: makeUnsubscribeMailto('ada@sender.ng', TOKEN),
    ...overrides,
  });
}

/** The message as the dispatcher sends it (raw-message.test.ts holds it to nodemailer's own composer). */
async function compose(mail: ComposedMail): Promise<{ raw: string; headerLines: string[] }> {
  const raw = composeRawMessage(mail).toString('utf8');
  // Unfold (RFC 5322 §2.2.3) so each header is one line whatever the folding did.
  const headerBlock = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
  return { raw, headerLines: headerBlock.split('\r\n') };
}

function header(lines: string[], name: string): string[] {
  const prefix = `${name.toLowerCase()}:`;
  return lines
    .filter((line) => line.toLowerCase().startsWith(prefix))
    .map((line) => line.slice(prefix.length).trim());
}

describe('makeMessageId', () => {
  it('puts a fresh uuid on the from domain', () => {
    const first = makeMessageId('Ada@Sender.NG');
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}@sender\.ng$/);
    expect(makeMessageId('ada@sender.ng')).not.toBe(first);
  });

  it('starts with the time, so the ids of messages sent later sort after (their unique index stays local)', () => {
    vi.useFakeTimers();
    try {
      vi.setSystemTime(new Date('2026-11-29T01:00:00.000Z'));
      const earlier = makeMessageId('ada@sender.ng');
      vi.setSystemTime(new Date('2026-11-29T01:00:00.002Z'));
      const later = makeMessageId('ada@sender.ng');
      expect(earlier).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}@/);
      expect(earlier < later).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('uses the ASCII form of an internationalized domain', () => {
    expect(makeMessageId('info@jõgeva.ee')).toMatch(/@xn--jgeva-dua\.ee$/);
  });

  it('refuses something that is not an address', () => {
    expect(() => makeMessageId('not an address')).toThrow(AppError);
    expect(() => makeMessageId('a@b.com\r\nBcc: x@y.com')).toThrow('Invalid from address');
  });
});

describe('makeUnsubscribeMailto and resolveTrackingBaseUrl', () => {
  it('builds the mailto the sender mailbox receives', () => {
    expect(makeUnsubscribeMailto('ada@sender.ng', TOKEN)).toBe(
      `mailto:ada@sender.ng?subject=unsubscribe%20${TOKEN}`,
    );
    expect(makeUnsubscribeMailto('ada+news@jõgeva.ee', 'abc')).toBe(
      'mailto:ada%2Bnews@xn--jgeva-dua.ee?subject=unsubscribe%20abc',
    );
    expect(() => makeUnsubscribeMailto('ada@sender.ng', 'bad token\r\n')).toThrow('Invalid message token');
  });

  it('prefers the tracking domain over https, else APP_URL without a trailing slash', () => {
    expect(resolveTrackingBaseUrl({ appUrl: 'http://localhost:3000/', trackingDomain: null })).toBe(
      'http://localhost:3000',
    );
    expect(
      resolveTrackingBaseUrl({ appUrl: 'https://app.tambari.ng', trackingDomain: 'track.acme.ng' }),
    ).toBe('https://track.acme.ng');
    expect(
      resolveTrackingBaseUrl({
        appUrl: 'https://app.tambari.ng',
        trackingDomain: ' https://Track.Acme.ng/ ',
      }),
    ).toBe('https://track.acme.ng');
    expect(
      resolveTrackingBaseUrl({ appUrl: 'https://app.tambari.ng', trackingDomain: 'klik.jõgeva.ee' }),
    ).toBe('https://klik.xn--jgeva-dua.ee');
    expect(resolveTrackingBaseUrl({ appUrl: 'https://app.tambari.ng', trackingDomain: '' })).toBe(
      'https://app.tambari.ng',
    );
    expect(() => resolveTrackingBaseUrl({ appUrl: 'https://app.tambari.ng', trackingDomain: 'a b' })).toThrow(
      AppError,
    );
  });
});

describe('cleanHeaderText', () => {
  it('turns every kind of line break and control character into a space', () => {
    expect(cleanHeaderText('a\r\nb\rc\nd\te\u0000f\u0085g\u2028h\u2029i\u007fj')).toBe('a b c d e f g h i j');
    expect(cleanHeaderText('  many   spaces  ')).toBe('many spaces');
    expect(cleanHeaderText('x'.repeat(2000), 10)).toBe('x'.repeat(10));
  });
});

describe('buildMailOptions', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-03-04T09:15:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes the RFC 5322 headers, our Message-ID and the one-click unsubscribe headers', async () => {
    const { headerLines } = await compose(options());
    expect(header(headerLines, 'From')).toEqual(['Ada Obi <ada@sender.ng>']);
    expect(header(headerLines, 'To')).toEqual(['Tunde Bakare <tunde@example.com>']);
    expect(header(headerLines, 'Reply-To')).toEqual(['replies@sender.ng']);
    expect(header(headerLines, 'Subject')).toEqual(['Quick question']);
    expect(header(headerLines, 'Date')).toEqual(['Wed, 04 Mar 2026 09:15:00 +0000']);
    expect(header(headerLines, 'Message-ID')).toEqual(['<0b6b1b8e-2f6b-4c1e-9a59-3d1c1f0e6a77@sender.ng>']);
    expect(header(headerLines, 'List-Unsubscribe')).toEqual([
      `<https://track.example.com/u/${TOKEN}>, <mailto:ada@sender.ng?subject=unsubscribe%20${TOKEN}>`,
    ]);
    expect(header(headerLines, 'List-Unsubscribe-Post')).toEqual(['List-Unsubscribe=One-Click']);
    // Nothing that marks cold email as bulk, and no internal ids.
    expect(header(headerLines, 'Precedence')).toEqual([]);
    expect(headerLines.some((line) => /^x-tambari/i.test(line))).toBe(false);
  });

  it('offers the mailto unsubscribe only when the mailbox is read', async () => {
    const account = { fromEmail: 'ada@sender.ng', imapEnabled: false, isDevMailbox: false };
    expect(unsubscribeMailtoFor(account, TOKEN)).toBeNull();
    expect(unsubscribeMailtoFor({ ...account, imapEnabled: true }, TOKEN)).toBe(
      `mailto:ada@sender.ng?subject=unsubscribe%20${TOKEN}`,
    );
    const { headerLines } = await compose(options({ unsubscribeMailto: null }));
    expect(header(headerLines, 'List-Unsubscribe')).toEqual([`<https://track.example.com/u/${TOKEN}>`]);
    expect(header(headerLines, 'List-Unsubscribe-Post')).toEqual(['List-Unsubscribe=One-Click']);
  });

  it('names only the sender in the footer of a newsletter, whose own footer says why', () => {
    const mail = options({ kind: 'newsletter' });
    expect(String(mail.text)).toContain('This email was sent to you by Ada Obi.');
    expect(String(mail.text)).not.toContain('thought it would interest you');
    expect(String(options().text)).toContain('because Ada Obi thought it would interest you');
  });

  it('leaves out Reply-To when the account has none', async () => {
    const { headerLines } = await compose(options({ replyTo: null }));
    expect(header(headerLines, 'Reply-To')).toEqual([]);
  });

  it('makes header injection through names and the subject impossible', async () => {
    const { headerLines, raw } = await compose(
      options({
        from: { name: 'Evil\r\nBcc: victim@example.org', email: 'ada@sender.ng' },
        to: { name: 'Tunde\nX-Injected: yes', email: 'tunde@example.com' },
        subject: 'Hello\r\nBcc: victim@example.org\u2028Cc: other@example.org\rX-Spam: no',
        senderName: 'Ada\r\nBcc: victim@example.org',
      }),
    );
    for (const name of ['Bcc', 'Cc', 'X-Injected', 'X-Spam']) expect(header(headerLines, name)).toEqual([]);
    const parsed = await simpleParser(raw);
    expect(parsed.bcc).toBeUndefined();
    expect(parsed.cc).toBeUndefined();
    expect(parsed.to).toMatchObject({
      value: [{ address: 'tunde@example.com', name: 'Tunde X-Injected: yes' }],
    });
    expect(parsed.from?.value).toEqual([{ address: 'ada@sender.ng', name: 'Evil Bcc: victim@example.org' }]);
    expect(parsed.subject).toBe('Hello Bcc: victim@example.org Cc: other@example.org X-Spam: no');
  });

  it('refuses addresses that would add recipients or break a header', () => {
    const bad = [
      'tunde@example.com\r\nBcc: victim@example.org',
      'a@example.com, b@example.com',
      '<a@example.com>',
      '',
    ];
    for (const email of bad) {
      expect(() => options({ to: { name: null, email } })).toThrow('Invalid recipient address');
    }
    expect(() => options({ replyTo: 'x@y.com\nBcc: z@w.com' })).toThrow('Invalid reply-to address');
    expect(() => options({ from: { name: 'A', email: 'a@b.com; c@d.com' } })).toThrow('Invalid from address');
    expect(() => options({ messageId: 'abc@sender.ng>\r\nBcc: x@y.com' })).toThrow('Invalid Message-ID');
    expect(() => options({ inReplyTo: 'abc@sender.ng>\r\nBcc: x@y.com' })).toThrow('Invalid Message-ID');
    expect(() => options({ inReplyTo: 'abc@sender.ng', references: ['a@b.ng> <evil'] })).toThrow(
      'Invalid Message-ID',
    );
    expect(() => options({ unsubscribeMailto: 'mailto:a@b.com>\r\nBcc: x@y.com' })).toThrow(
      'Invalid unsubscribe mailto',
    );
    expect(() => options({ trackingBaseUrl: 'https://x.com>, <https://evil.com' })).toThrow(
      'Invalid tracking URL',
    );
  });

  it('encodes non-ASCII names (RFC 2047) so they read back intact', async () => {
    const { raw, headerLines } = await compose(
      options({
        from: { name: 'Ọlá Àdìgún', email: 'ola@sender.ng' },
        to: { name: 'Chidi "CJ" Eze', email: 'cj@x.ng' },
      }),
    );
    expect(header(headerLines, 'From')[0]).toMatch(/^=\?UTF-8\?/);
    expect(headerLines.every((line) => /^[\x20-\x7e]*$/.test(line))).toBe(true);
    const parsed = await simpleParser(raw);
    expect(parsed.from?.value).toEqual([{ address: 'ola@sender.ng', name: 'Ọlá Àdìgún' }]);
    expect(parsed.to).toMatchObject({ value: [{ address: 'cj@x.ng', name: 'Chidi "CJ" Eze' }] });
  });

  it('adds the footer to both parts: identity, postal address and a visible unsubscribe link', async () => {
    const mail = options();
    const html = String(mail.html);
    expect(html).toMatch(
      /<p>Hello Tunde<\/p><div style="[^"]*color:#767676[^"]*">.*Ada Obi, 12 Allen Avenue, Ikeja, Lagos.*<a href="https:\/\/track\.example\.com\/u\/Xy3_kP9-aQ2mN7wL1zR5tA"[^>]*>Unsubscribe<\/a>.*<\/div><\/body><\/html>$/,
    );
    expect(mail.text).toBe(
      'Hello Tunde\n\nYou received this email because Ada Obi thought it would interest you.\n' +
        `Ada Obi, 12 Allen Avenue, Ikeja, Lagos\nUnsubscribe: https://track.example.com/u/${TOKEN}\n`,
    );
    const parsed = await simpleParser((await compose(mail)).raw);
    expect(parsed.text).toContain(`Unsubscribe: https://track.example.com/u/${TOKEN}`);
    expect(parsed.html).toContain(`href="https://track.example.com/u/${TOKEN}"`);
    // The unsubscribe link is never a click-tracking link.
    expect(String(parsed.html)).not.toContain('/t/c/');
  });

  it('escapes what it inserts into the HTML footer', () => {
    const html = String(
      options({ senderName: '<script>alert(1)</script> & Co', postalAddress: '1 "Quoted" <Road>' }).html,
    );
    expect(html).not.toContain('<script>');
    expect(html).toContain(
      '&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co, 1 &quot;Quoted&quot; &lt;Road&gt;',
    );
  });

  it('puts the footer before </body> whatever its case, or at the end of a fragment', () => {
    expect(String(options({ html: '<HTML><BODY><p>Hi</p></BODY></HTML>' }).html)).toMatch(
      /<\/div><\/BODY><\/HTML>$/,
    );
    expect(String(options({ html: '<html><Body><p>Hi</p></Body></html>' }).html)).toMatch(
      /<\/div><\/Body><\/html>$/,
    );
    expect(String(options({ html: '<p>Hi</p>' }).html)).toMatch(
      /^<p>Hi<\/p><div .*Unsubscribe<\/a><\/p><\/div>$/,
    );
  });

  it('never reads a body from a file or a URL', () => {
    const mail = options();
    expect(mail.disableFileAccess).toBe(true);
    expect(mail.disableUrlAccess).toBe(true);
  });
});
