import * as base64 from 'nodemailer/lib/base64';
import { hasLongerLines, isPlainText } from 'nodemailer/lib/mime-funcs';
import * as qp from 'nodemailer/lib/qp';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearTextBodyCache, encodeTextBody, textBodyCacheStats } from './text-part-body';

/** What MimeNode does with a string part, with the line ends DataStream puts on the wire. */
function reference(content: string): { encoding: string; body: string } {
  const wire = (value: string) => value.replace(/\r\n?|\n/g, '\r\n');
  if (isPlainText(content) && !hasLongerLines(content, 76)) return { encoding: '7bit', body: wire(content) };
  let nonLatin = 0;
  let latin = 0;
  for (const c of content) {
    const code = c.charCodeAt(0);
    if (code <= 0x08 || code === 0x0b || code === 0x0c || (code >= 0x0e && code <= 0x1f) || code >= 0x80) {
      nonLatin += c.length;
    } else if (/[A-Za-z]/.test(c)) latin++;
  }
  if (nonLatin < latin) return { encoding: 'quoted-printable', body: wire(qp.wrap(qp.encode(content), 76)) };
  return { encoding: 'base64', body: base64.wrap(base64.encode(content), 76) };
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body
    .replace(/=\r\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** A small seeded generator, so a failure can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]) => items[int(items.length)]!;
  return { next, int, pick };
}

const TOKEN_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
// The characters quoted-printable and its soft line breaks treat specially, and some that are not.
const PIECES = [
  ' ',
  '\t',
  '.',
  ',',
  '!',
  '?',
  '=',
  '\n',
  '\r\n',
  '\r',
  '\n.',
  'é',
  'ṣ',
  '—',
  '🚀',
  'مرحبا',
  '=3D',
  '=C3',
  'a',
  'word ',
  'https://example.com/c/',
  '<a href="',
  '">',
  '\u0000',
];

function token(rng: ReturnType<typeof random>, length = 22): string {
  let value = '';
  while (value.length < length) value += rng.pick([...TOKEN_ALPHABET]);
  return value;
}

/** A body with the `slot` marker where the token goes, some runs long enough to wrap. */
function template(rng: ReturnType<typeof random>, slot: string): string {
  let value = '';
  const parts = 5 + rng.int(60);
  for (let i = 0; i < parts; i++) {
    const r = rng.next();
    if (r < 0.15) value += slot;
    else if (r < 0.3) value += 'x'.repeat(rng.int(90));
    else value += rng.pick(PIECES);
  }
  return value.includes(slot) ? value : `${value}${slot}`;
}

describe('encodeTextBody', () => {
  beforeEach(() => clearTextBodyCache());

  it('encodes every copy of a body as encoding it alone would, whatever its token and wherever it sits', () => {
    const rng = random(19);
    const slot = '\u0001SLOT\u0001';
    for (let body = 0; body < 300; body++) {
      const shape = template(rng, slot);
      const length = rng.pick([22, 22, 22, 8, 1]);
      for (let copy = 0; copy < 6; copy++) {
        const t = token(rng, length);
        const content = shape.replaceAll(slot, t);
        expect(encodeTextBody(content, t), JSON.stringify({ shape, t })).toEqual(reference(content));
      }
    }
    // Most copies came from a template (base64 bodies and the first two copies of each do not: a body is remembered from its second).
    expect(textBodyCacheStats().filled).toBeGreaterThan(300 * 5 * 0.6);
  });

  it('keeps quoted-printable soft line breaks exact when one falls inside a token', () => {
    const rng = random(7);
    for (let offset = 0; offset < 80; offset++) {
      const shape = `${'y'.repeat(offset)}SLOT and more text ${'z'.repeat(100)} SLOTSLOT é\n`;
      for (let copy = 0; copy < 3; copy++) {
        const t = token(rng);
        const content = shape.replaceAll('SLOT', t);
        expect(encodeTextBody(content, t)).toEqual(reference(content));
      }
    }
    expect(textBodyCacheStats().filled).toBe(80 * 1);
  });

  it('remembers a body once for all its copies, and never a copy of its own', () => {
    const rng = random(3);
    const shape = `<p>Hello Ada, ${'fresh produce from Kano. '.repeat(20)}</p><a href="https://t.example/c/SLOT/0">é</a>`;
    for (let copy = 0; copy < 50; copy++) {
      const t = token(rng);
      const content = shape.replaceAll('SLOT', t);
      expect(encodeTextBody(content, t)).toEqual(reference(content));
    }
    expect(textBodyCacheStats()).toEqual({ remembered: 1, filled: 48 });
    // No token in it, or not this message's: encoded directly and not remembered.
    const plain = 'Hello Ada, fresh produce from Kano. '.repeat(10);
    expect(encodeTextBody(plain, token(rng))).toEqual(reference(plain));
    expect(encodeTextBody(plain, null)).toEqual(reference(plain));
    expect(textBodyCacheStats()).toEqual({ remembered: 1, filled: 48 });
  });

  it('encodes a body seen only once directly and keeps nothing of it (every copy its own first name)', () => {
    const rng = random(23);
    for (let copy = 0; copy < 100; copy++) {
      const t = token(rng);
      const content = `<p>Hello Lead${copy}, ${'fresh produce from Kano. '.repeat(20)}</p><a href="https://t.example/c/${t}/0">é</a>`;
      expect(encodeTextBody(content, t)).toEqual(reference(content));
    }
    expect(textBodyCacheStats()).toEqual({ remembered: 0, filled: 0 });
  });

  it('never gives one body the encoding of another: two newsletters, an edited one, another first name', () => {
    const rng = random(11);
    const shapes = [
      `<p>Hello Ada, ${'our November news. '.repeat(12)}</p><img src="https://t.example/o/SLOT">`,
      `<p>Hello Ada, ${'our November news! '.repeat(12)}</p><img src="https://t.example/o/SLOT">`,
      `<p>Hello Chidi, ${'our November news. '.repeat(12)}</p><img src="https://t.example/o/SLOT">`,
      `<p>Hello Ngozi, ${'our November news. '.repeat(12)}</p><img src="https://t.example/o/SLOT">`,
    ];
    for (let round = 0; round < 5; round++) {
      for (const shape of shapes) {
        const t = token(rng);
        const content = shape.replaceAll('SLOT', t);
        const encoded = encodeTextBody(content, t);
        expect(encoded).toEqual(reference(content));
        expect(decodeQuotedPrintable(encoded.body)).toBe(content);
      }
    }
    expect(textBodyCacheStats()).toEqual({ remembered: shapes.length, filled: 3 * shapes.length });
  });

  it('tells apart bodies of one length that differ only between the characters the fingerprint reads', () => {
    const rng = random(5);
    // The fingerprint hashes every fourth character; these differ at the second only.
    const shapes = ['Xa', 'Xb', 'Xc'].map((start) => `${start}${'é news. '.repeat(20)}SLOT`);
    for (let round = 0; round < 4; round++) {
      for (const shape of shapes) {
        const t = token(rng);
        const content = shape.replace('SLOT', t);
        expect(encodeTextBody(content, t)).toEqual(reference(content));
      }
    }
    expect(textBodyCacheStats()).toEqual({ remembered: 3, filled: 6 });
  });

  it('chooses base64 or quoted-printable by the letters of each copy, its token included', () => {
    // Arabic against Latin letters, balanced so a token's letters tip the rule one way or the other.
    const arabic = 'م'.repeat(29);
    const shape = `${arabic} ${'a'.repeat(8)} SLOT`;
    const letters = 'abcdefghijklmnopqrstuv';
    const digits = '0123456789012345678901';
    for (const t of [letters, digits, letters, digits]) {
      const content = shape.replace('SLOT', t);
      expect(encodeTextBody(content, t)).toEqual(reference(content));
    }
    expect(encodeTextBody(shape.replace('SLOT', letters), letters).encoding).toBe('quoted-printable');
    expect(encodeTextBody(shape.replace('SLOT', digits), digits).encoding).toBe('base64');
  });
});
