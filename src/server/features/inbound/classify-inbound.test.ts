import { readFileSync } from 'node:fs';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { classifyInbound, freshText } from './classify-inbound';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../../tests/fixtures/inbound/${name}`, import.meta.url));

async function classify(name: string) {
  const raw = fixture(name);
  return classifyInbound({ parsed: await simpleParser(raw), raw });
}

async function classifyText(raw: string) {
  return classifyInbound({ parsed: await simpleParser(raw), raw });
}

const day = (iso: string) => new Date(`${iso}T00:00:00Z`);

describe('classifyInbound: delivery status notifications', () => {
  it('reads a Gmail DSN: hard, 5.1.1, recipient, diagnostic and the original Message-ID first', async () => {
    const result = await classify('gmail-dsn-hard.eml');
    expect(result).toMatchObject({
      kind: 'bounce_hard',
      bouncedRecipient: 'tunde.nobody@example.ng',
      statusCode: '5.1.1',
      returnDate: null,
    });
    expect(result.diagnostic).toMatch(
      /^550-5\.1\.1 The email account that you tried to reach does not exist/,
    );
    expect(result.referencedMessageIds[0]).toBe('orig-gmail-0001@kano-logistics.test');
  });

  it('reads a Microsoft 365 NDR with text/rfc822-headers and a three-digit status detail', async () => {
    const result = await classify('exchange-ndr-hard.eml');
    expect(result).toMatchObject({
      kind: 'bounce_hard',
      bouncedRecipient: 'ngozi.okafor@contoso.com',
      statusCode: '5.1.10',
    });
    expect(result.diagnostic).toContain('RESOLVER.ADR.RecipientNotFound');
    expect(result.referencedMessageIds).toContain('orig-exchange-0002@kano-logistics.test');
  });

  it('treats a full mailbox (5.2.2) as a soft bounce', async () => {
    const result = await classify('postfix-dsn-mailbox-full.eml');
    expect(result).toMatchObject({
      kind: 'bounce_soft',
      bouncedRecipient: 'bola@lagos-traders.test',
      statusCode: '5.2.2',
    });
    expect(result.diagnostic).toContain('Mailbox full');
    expect(result.referencedMessageIds).toEqual(['orig-postfix-0003@kano-logistics.test']);
  });

  it('treats "Action: delayed" (4.4.1) as a soft bounce', async () => {
    const result = await classify('postfix-dsn-delayed.eml');
    expect(result).toMatchObject({
      kind: 'bounce_soft',
      statusCode: '4.4.1',
      bouncedRecipient: 'emeka@abuja-farms.test',
    });
    expect(result.referencedMessageIds).toEqual(['orig-delayed-0004@kano-logistics.test']);
  });

  it('does not count a success report (Action: relayed) as a bounce', async () => {
    expect((await classify('delivered-dsn.eml')).kind).toBe('other');
  });

  it('reads the failed action among several recipients and a 5xx DSN with 4.x.x status as soft', async () => {
    const raw = [
      'From: MAILER-DAEMON@mx.test',
      'To: amina@kano-logistics.test',
      'Subject: Delivery Status Notification',
      'Content-Type: multipart/report; report-type=delivery-status; boundary="b"',
      '',
      '--b',
      'Content-Type: text/plain',
      '',
      'Report',
      '--b',
      'Content-Type: message/delivery-status',
      '',
      'Reporting-MTA: dns; mx.test',
      '',
      'Final-Recipient: rfc822; fine@example.com',
      'Action: delivered',
      'Status: 2.0.0',
      '',
      'Final-Recipient: rfc822; <Gone@Example.com>',
      'Action: failed',
      'Status: 5.7.1',
      'Diagnostic-Code: smtp; 550 5.7.1 Relaying denied',
      '--b--',
      '',
    ].join('\r\n');
    const result = await classifyText(raw);
    expect(result).toMatchObject({
      kind: 'bounce_hard',
      bouncedRecipient: 'gone@example.com',
      statusCode: '5.7.1',
      diagnostic: '550 5.7.1 Relaying denied',
    });
  });
});

describe('classifyInbound: bounces without a standard report', () => {
  it('reads an Exim "Mail delivery failed" text bounce', async () => {
    const result = await classify('exim-bounce.eml');
    expect(result).toMatchObject({
      kind: 'bounce_hard',
      bouncedRecipient: 'ada@gone.example.com',
      statusCode: '5.1.1',
    });
    expect(result.diagnostic).toContain('User unknown');
    expect(result.referencedMessageIds).toEqual(['orig-exim-0005@kano-logistics.test']);
  });

  it('reads a qmail "failure notice"', async () => {
    const result = await classify('qmail-bounce.eml');
    expect(result).toMatchObject({
      kind: 'bounce_hard',
      bouncedRecipient: 'kemi@example.net',
      statusCode: '5.1.1',
    });
    expect(result.referencedMessageIds).toEqual(['orig-qmail-0006@kano-logistics.test']);
  });

  it('reads an "Undeliverable" from postmaster with only a basic reply code and wording', async () => {
    const raw = [
      'From: postmaster@contoso.test',
      'To: amina@kano-logistics.test',
      'Subject: Undeliverable: Quick question',
      'Content-Type: text/plain',
      '',
      'Delivery has failed to these recipients or groups:',
      '',
      'Your message to sola@contoso.test could not be delivered.',
      'Remote Server returned 550 Requested action not taken: mailbox unavailable',
      '',
    ].join('\r\n');
    const result = await classifyText(raw);
    expect(result).toMatchObject({ kind: 'bounce_hard', bouncedRecipient: 'sola@contoso.test' });
    expect(result.diagnostic).toContain('550 Requested action not taken');
  });

  it('calls a bounce with nothing readable soft (never suppresses on a guess)', async () => {
    const raw = [
      'From: Mail Delivery Subsystem <mailer-daemon@mx.test>',
      'To: amina@kano-logistics.test',
      'Subject: Returned mail: see transcript for details',
      '',
      'The original message was received at Tue, 24 Nov 2026 and could not be handled.',
      '',
    ].join('\r\n');
    expect(await classifyText(raw)).toMatchObject({ kind: 'bounce_soft', statusCode: null });
  });

  it('reads "mailbox full" wording without a code as soft', async () => {
    const raw = [
      'From: MAILER-DAEMON@mx.test',
      'To: amina@kano-logistics.test',
      'Subject: failure notice',
      '',
      '<dayo@full.test>:',
      'Mailbox is full, please try later.',
      '',
    ].join('\r\n');
    expect(await classifyText(raw)).toMatchObject({
      kind: 'bounce_soft',
      bouncedRecipient: 'dayo@full.test',
    });
  });
});

describe('classifyInbound: out of office', () => {
  it('reads an Outlook automatic reply and its return date', async () => {
    const result = await classify('outlook-ooo.eml');
    expect(result).toMatchObject({ kind: 'out_of_office', returnDate: day('2026-12-07') });
    expect(result.referencedMessageIds).toEqual(['orig-outlook-ooo-0007@kano-logistics.test']);
  });

  it('reads a Gmail vacation responder', async () => {
    const result = await classify('gmail-vacation.eml');
    expect(result).toMatchObject({ kind: 'out_of_office', returnDate: day('2026-12-03') });
    expect(result.referencedMessageIds).toEqual(['orig-gmail-vacation-0008@kano-logistics.test']);
  });

  it('reads a French automatic reply written in December as back in January', async () => {
    const result = await classify('french-ooo.eml');
    expect(result).toMatchObject({ kind: 'out_of_office', returnDate: day('2027-01-04') });
  });

  it('gives no return date when the message names none', async () => {
    expect(await classify('ooo-no-date.eml')).toMatchObject({ kind: 'out_of_office', returnDate: null });
  });

  it('does not call an automatic acknowledgement without absence wording out of office', async () => {
    const raw = [
      'From: support@vendor.test',
      'To: amina@kano-logistics.test',
      'Subject: We received your request [#4411]',
      'Auto-Submitted: auto-replied',
      'In-Reply-To: <orig-ack@kano-logistics.test>',
      '',
      'Thanks for contacting support. A member of the team will answer within 2 working days.',
      '',
    ].join('\r\n');
    expect((await classifyText(raw)).kind).toBe('other');
  });
});

describe('classifyInbound: replies', () => {
  it('reads a plain human reply and its thread', async () => {
    const result = await classify('human-reply.eml');
    expect(result).toMatchObject({ kind: 'reply', bouncedRecipient: null, statusCode: null });
    expect(result.referencedMessageIds).toEqual(['orig-reply-0011@kano-logistics.test']);
  });

  it('reads a person replying to (and quoting) their own out-of-office as a reply', async () => {
    const result = await classify('reply-quoting-ooo.eml');
    expect(result.kind).toBe('reply');
    // In-Reply-To first, then References newest first.
    expect(result.referencedMessageIds).toEqual([
      'AM9PR04MB8340B1A2C3D4E5F6A7B8C9D0E1F2A@AM9PR04MB8340.eurprd04.prod.outlook.com',
      'orig-quoting-ooo-0012@kano-logistics.test',
    ]);
  });

  it('reads a French reply and a Pidgin reply as replies', async () => {
    expect(await classify('french-reply.eml')).toMatchObject({
      kind: 'reply',
      referencedMessageIds: ['orig-french-0013@kano-logistics.test'],
    });
    expect(await classify('pidgin-reply.eml')).toMatchObject({
      kind: 'reply',
      referencedMessageIds: ['orig-pidgin-0014@kano-logistics.test'],
    });
  });

  it('does not take a newsletter that says "Unsubscribe" for a reply or an unsubscribe request', async () => {
    expect((await classify('newsletter.eml')).kind).toBe('other');
  });
});

describe('classifyInbound: unsubscribes and complaints', () => {
  it('reads "Please remove me from your list." as an unsubscribe request', async () => {
    const result = await classify('unsubscribe-reply.eml');
    expect(result).toMatchObject({ kind: 'unsubscribe_request', unsubscribeToken: null });
    expect(result.referencedMessageIds).toEqual(['orig-unsub-0015@kano-logistics.test']);
  });

  it('reads the List-Unsubscribe mailto subject and its token', async () => {
    expect(await classify('unsubscribe-mailto.eml')).toMatchObject({
      kind: 'unsubscribe_request',
      unsubscribeToken: 'q3Zr8Kx1Lm2Np4Qs6Tu8Vw',
      referencedMessageIds: [],
    });
  });

  it.each([
    ['STOP', 'unsubscribe_request'],
    ['Unsubscribe me please', 'unsubscribe_request'],
    ['Abeg remove me from this list', 'unsubscribe_request'],
    ['Désabonnez-moi', 'unsubscribe_request'],
    ["Don't stop, this is useful. How much for Kano to Lagos?", 'reply'],
    ['Can you remove me from the CC and add my colleague instead?', 'reply'],
  ])('reads the first line %j as %s', async (line, kind) => {
    const raw = [
      'From: someone@example.test',
      'To: amina@kano-logistics.test',
      'Subject: Re: Quick question',
      'In-Reply-To: <orig-line@kano-logistics.test>',
      '',
      line,
      '',
      '> quoted text that says unsubscribe',
      '',
    ].join('\r\n');
    expect((await classifyText(raw)).kind).toBe(kind);
  });

  it('reads an ARF feedback-loop report as a complaint about the original message', async () => {
    const result = await classify('arf-complaint.eml');
    expect(result).toMatchObject({
      kind: 'complaint',
      bouncedRecipient: 'yusuf@hotmail.test',
      diagnostic: 'Feedback type: abuse',
    });
    expect(result.referencedMessageIds).toEqual(['orig-arf-0016@kano-logistics.test']);
  });
});

describe('classifyInbound: hostile input', () => {
  it('survives a message with no headers, a bad date, and thousands of references', async () => {
    expect((await classifyText('just text')).kind).toBe('other');
    const refs = Array.from({ length: 5_000 }, (_, i) => `<r${i}@x.test>`).join(' ');
    const result = await classifyText(
      `From: a@b.test\r\nDate: not a date\r\nSubject: Re: x\r\nReferences: ${refs}\r\n\r\nOk`,
    );
    expect(result.kind).toBe('reply');
    expect(result.referencedMessageIds.length).toBeLessThanOrEqual(50);
  });

  it('survives a report nested deeper than it should be and a boundary that never closes', async () => {
    let body = 'Status: 5.1.1';
    for (let i = 0; i < 40; i++) {
      body = `Content-Type: multipart/report; report-type=delivery-status; boundary="b${i}"\r\n\r\n--b${i}\r\n${body}\r\n`;
    }
    const raw = `From: MAILER-DAEMON@x.test\r\nSubject: failure notice\r\n${body}`;
    const result = await classifyText(raw);
    expect(['bounce_soft', 'bounce_hard']).toContain(result.kind);
  });
});

describe('freshText', () => {
  it('stops at the quoted conversation in English and French clients', () => {
    expect(freshText('Yes please.\n\nOn Tue, 24 Nov 2026 at 10:14, A <a@b.test>\nwrote:\n> old')).toBe(
      'Yes please.',
    );
    expect(freshText('Oui.\n\nLe mar. 24 nov. 2026 à 10:14, A <a@b.test> a écrit :\n> ancien')).toBe('Oui.');
    expect(freshText('Fine\n-----Original Message-----\nFrom: x')).toBe('Fine');
    expect(freshText('> quoted first\nmine')).toBe('mine');
  });
});
