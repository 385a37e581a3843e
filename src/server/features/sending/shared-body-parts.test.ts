import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isVouchedCrlfOnly } from '../sender-accounts/sender-accounts.service';
import { composeOutgoing, type OutgoingAccount } from './compose-outgoing';
import { prepareQueuedBody } from './message-content';
import type { SharedBody } from './outbox-bodies';
import { SENDER_PLACEHOLDERS } from './sender-placeholders';
import { clearSharedBodyParts, composeFromSharedBody, sharedBodyPartStats } from './shared-body-parts';

const STAND_IN = 'Qz7_stANdIn-0123456789abcde';
const BASE = 'https://track.example.com';

/** A newsletter body as queued: tracked links and pixel hold the stand-in, the sender's values placeholders. */
function sharedBody(greeting: string, extra = ''): SharedBody {
  const prepared = prepareQueuedBody({
    html:
      `<html><body><p>${greeting},</p><p>Fresh produce from ${SENDER_PLACEHOLDERS.fromName} ` +
      `(${SENDER_PLACEHOLDERS.company}). ${'We deliver to Lagos, Abuja and Kano the same day. '.repeat(40)}</p>` +
      `<p>See <a href="https://kanofoods.ng/menu">the menu</a> and <a href="https://kanofoods.ng/order?a=1&b=2">order</a>.</p>${extra}</body></html>`,
    token: STAND_IN,
    trackingBaseUrl: BASE,
    trackOpens: true,
    trackClicks: true,
  });
  return { html: prepared.html, text: prepared.text, links: prepared.links, standIn: STAND_IN };
}

const accounts: OutgoingAccount[] = [
  {
    fromName: 'Kano Foods',
    fromEmail: 'news@kanofoods.ng',
    replyTo: null,
    company: 'Kano Foods Ltd',
    postalAddress: '12 Marina Road\nLagos',
    imapEnabled: false,
    isDevMailbox: false,
  },
  {
    fromName: 'Ngozi Ọkafọ',
    fromEmail: 'ngozi@kanofoods.ng',
    replyTo: 'replies@kanofoods.ng',
    company: null,
    postalAddress: '3 Allen Avenue, Ikeja',
    imapEnabled: true,
    isDevMailbox: false,
  },
];

const recipients = [
  { token: 'AAAAAAAAAAAAAAAAAAAAAAAAAAA', name: 'Ada Obi', email: 'ada@example.com' },
  // One token shorter than the others (tokens made before 2026-11 were 22 characters).
  { token: 'k-9_zZ01xYwvQmnbvcxzlkjhgf', name: 'Chidi Eze', email: 'chidi@example.ng' },
  { token: '0123456789abcdefghijklmnopq', name: '', email: 'tunde@example.org' },
  { token: 'zyxwvutsrqponmlkjihgfedcbaZ', name: 'Amara "Ami" Nwosu', email: 'amara@example.com' },
];

/** The message both ways: from the shared body's parts, and built from the row's own html as before. */
function both(body: SharedBody, account: OutgoingAccount, r: (typeof recipients)[number], i: number) {
  const input = {
    content: {
      subject: `News for ${SENDER_PLACEHOLDERS.fromName}`,
      html: body.html.replaceAll(body.standIn, r.token),
      text: body.text,
    },
    account,
    messageId: `01a2258f-81bf-7108-b02b-${String(i).padStart(12, '0')}@kanofoods.ng`,
    token: r.token,
    trackingBaseUrl: BASE,
    to: { name: r.name, email: r.email },
    kind: 'newsletter' as const,
  };
  // The row's html is not built for the fast path: only its body goes in.
  const fast = composeFromSharedBody({
    ...input,
    content: { subject: input.content.subject, text: input.content.text },
    body,
  });
  const direct = composeOutgoing(input);
  return { fast, direct };
}

/** The boundary is random per message: the same one in both before comparing. */
function sameBoundary(raw: Buffer): string {
  const text = raw.toString('utf8');
  const boundary = /boundary="([^"]+)"/.exec(text.replace(/\r\n[ \t]+/g, ' '))?.[1];
  return boundary ? text.replaceAll(boundary, '=_tambari_00000000-0000-4000-8000-000000000000') : text;
}

describe('composeFromSharedBody: the copies of a newsletter from parts encoded once', () => {
  beforeEach(() => {
    clearSharedBodyParts();
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-29T04:00:00.000Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('gives every recipient the bytes the direct build gives, from the second copy of a body on', () => {
    const bodies = [sharedBody('Hello Ada'), sharedBody('Hello Chidi', '<p>Ẹ kú àárọ̀ — “quotes”</p>')];
    let i = 0;
    let vouched = 0;
    for (let round = 0; round < 3; round++) {
      for (const body of bodies) {
        for (const account of accounts) {
          for (const r of recipients) {
            const { fast, direct } = both(body, account, r, i++);
            expect(sameBoundary(fast.raw)).toBe(sameBoundary(direct.raw));
            // A copy filled from parts is vouched to have CRLF line ends only (its DATA stream need
            // not look); its line ends are indeed CRLF.
            if (isVouchedCrlfOnly(fast.raw)) vouched++;
            expect(/\r(?!\n)|(?<!\r)\n/.test(fast.raw.toString('latin1'))).toBe(false);
            expect(fast.from).toBe(direct.mail.from.address);
            expect(fast.to).toBe(direct.mail.to.address);
            // Each copy's own token, List-Unsubscribe and Message-ID.
            const raw = fast.raw.toString('utf8').replace(/\r\n[ \t]+/g, ' ');
            expect(raw).toContain(`List-Unsubscribe: <${BASE}/u/${r.token}>`);
            expect(raw).toContain(
              `Message-ID: <01a2258f-81bf-7108-b02b-${String(i - 1).padStart(12, '0')}@kanofoods.ng>`,
            );
          }
        }
      }
    }
    // Two bodies by two accounts and two token lengths: eight sets of parts, each filled for every copy
    // after its first (9 copies with 27-character tokens, 3 with the 26-character one).
    expect(sharedBodyPartStats()).toEqual({ templates: 8, filled: 4 * (9 - 1 + 3 - 1) });
    expect(vouched).toBe(sharedBodyPartStats().filled);
  });

  it('is the direct build for a plain-text-only body (no HTML part)', () => {
    const body = { ...sharedBody('Hi'), html: '' };
    for (let i = 0; i < 4; i++) {
      const { fast, direct } = both(body, accounts[0]!, recipients[i]!, i);
      expect(sameBoundary(fast.raw)).toBe(sameBoundary(direct.raw));
    }
  });

  it('falls back to the direct build where the parts cannot be templated (a mostly non-Latin body)', () => {
    const body = sharedBody('Hello', `<p>${'مرحبا بكم في متجرنا '.repeat(200)}</p>`);
    for (let i = 0; i < 4; i++) {
      const { fast, direct } = both(body, accounts[0]!, recipients[i]!, i);
      expect(sameBoundary(fast.raw)).toBe(sameBoundary(direct.raw));
    }
    expect(sharedBodyPartStats().filled).toBe(0);
  });
});
