import { seededRandom } from '@server/lib/seeded-random';
import { describe, expect, it } from 'vitest';
import {
  fillSenderPlaceholders,
  SENDER_PLACEHOLDERS,
  senderCompanyOr,
  withSenderValues,
} from './sender-placeholders';

/*
 * Filling skips a text in which no placeholder starts (no OPEN character), instead of one in which no
 * placeholder character at all appears. Both must give the same text: here against the replacements
 * applied unconditionally, on random texts of whole placeholders, pieces of them and ordinary text.
 */

const sender = { fromName: ' Ṣade <Bello> ', fromEmail: 'sade@bello.test', company: 'Bello & "Sons"' };
const PIECES = [
  SENDER_PLACEHOLDERS.fromName,
  SENDER_PLACEHOLDERS.fromEmail,
  SENDER_PLACEHOLDERS.company,
  senderCompanyOr('our team'),
  '\uE000',
  '\uE001',
  '\uE00F',
  '\uE004x\uE00F',
  'a',
  ' ',
  '&',
  '“',
  '\r\n',
];

/** The fill as it was before the shortcut: every replacement applied. */
function fillAlways(text: string, mode: 'html' | 'text'): string {
  const shown = (value: string) =>
    mode === 'html'
      ? value
          .replaceAll('&', '&amp;')
          .replaceAll('<', '&lt;')
          .replaceAll('>', '&gt;')
          .replaceAll('"', '&quot;')
          .replaceAll("'", '&#39;')
      : value;
  const company = sender.company.trim();
  return text
    .replaceAll(SENDER_PLACEHOLDERS.fromName, shown(sender.fromName.trim()))
    .replaceAll(SENDER_PLACEHOLDERS.fromEmail, shown(sender.fromEmail.trim()))
    .replaceAll(SENDER_PLACEHOLDERS.company, shown(company))
    .replace(/\uE000\uE004([^\uE000-\uE00F]*)\uE00F/g, () => shown(company));
}

describe('filling sender placeholders', () => {
  it('gives what the unconditional replacements give, with or without a placeholder start', () => {
    const next = seededRandom(73);
    for (let i = 0; i < 3_000; i++) {
      let text = '';
      const length = Math.floor(next() * 12);
      for (let k = 0; k < length; k++) text += PIECES[Math.floor(next() * PIECES.length)];
      for (const mode of ['html', 'text'] as const) {
        expect(fillSenderPlaceholders(text, sender, mode), JSON.stringify(text)).toBe(fillAlways(text, mode));
      }
      const message = { subject: text, html: `<p>${text}</p>`, text: i % 3 === 0 ? null : text };
      expect(withSenderValues(message, sender)).toEqual({
        subject: fillAlways(message.subject, 'text'),
        html: fillAlways(message.html, 'html'),
        text: message.text === null ? null : fillAlways(message.text, 'text'),
      });
    }
  });
});
