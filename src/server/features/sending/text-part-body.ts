import { randomInt } from 'node:crypto';
import * as base64 from 'nodemailer/lib/base64';
import { hasLongerLines, isPlainText } from 'nodemailer/lib/mime-funcs';
import * as qp from 'nodemailer/lib/qp';

/*
 * The encoded body of one text part (text/plain or text/html): nodemailer's choice between 7bit,
 * quoted-printable and base64 and its encoders, with the line ends the SMTP connection would send.
 *
 * The copies of one newsletter differ by their outbox token (in the click links, the open pixel and the
 * unsubscribe link) and by a few merge-tag values that repeat (first names). Encoding a 10 kB HTML part
 * as quoted-printable, with its soft line breaks, was the largest piece of a worker's CPU per message
 * after the SMTP exchange itself. So the encoding of a body is kept, keyed by the body's text around its
 * token, as a template with holes where the token's characters go, from a body's second copy on (one
 * seen once is only remembered as seen); each further copy fills in its own token. Two newsletters, an edited one, or two first names are different bodies: a body is only ever
 * matched whole. That is exact because a token's characters ([A-Za-z0-9_-]) are neutral to
 * quoted-printable: each is written as itself, and none is one that the soft line breaks look at (white
 * space, `.,!?`, `=`, line ends), so two tokens of one length give the same line breaks in the same
 * places. The template is found by encoding the body with two stand-ins that differ in every character
 * and comparing the results, and is checked against a direct encoding before it is used. Base64 is not
 * templated (its output mixes neighbouring bytes); a body without the token is encoded directly.
 *
 * Line ends: the SMTP connection (nodemailer's DataStream) turns every bare LF and bare CR into CRLF on
 * the wire, and scans for them byte by byte, cutting and joining buffers at each one. The body leaves
 * here with those CRLFs already in place, so the bytes on the wire are the same and the connection
 * passes the message through untouched.
 */

export type TransferEncoding = '7bit' | 'quoted-printable' | 'base64';

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;
const TOKEN_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Bodies remembered (most recently used kept): keys and templates together, in characters. */
const MAX_ENTRIES = 512;
const MAX_CHARS = 6_000_000;

/** Bare CR and bare LF as CRLF, as DataStream sends them. */
export function withWireLineEnds(value: string): string {
  return value.replace(/\r\n?|\n/g, '\r\n');
}

/**
 * 'Q' when Latin letters outnumber the non-ASCII and control characters, else 'B' — nodemailer's rule
 * (MimeNode#_getTextEncoding, not part of its public interface), so Yoruba or French text stays
 * readable quoted-printable and Arabic or Amharic is not tripled in size by it.
 */
export function characterCounts(value: string): { nonLatin: number; latin: number } {
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
  return { nonLatin, latin };
}

export function latinLetters(value: string): number {
  return characterCounts(value).latin;
}

/** As MimeNode encodes a string part: 7bit when it can, else quoted-printable or base64. */
function encodeDirect(content: string): { encoding: TransferEncoding; body: string } {
  if (isPlainText(content) && !hasLongerLines(content, 76)) {
    return { encoding: '7bit', body: withWireLineEnds(content) };
  }
  const { nonLatin, latin } = characterCounts(content);
  if (nonLatin < latin) return { encoding: 'quoted-printable', body: quotedPrintable(content) };
  return { encoding: 'base64', body: base64.wrap(base64.encode(content), 76) };
}

function quotedPrintable(content: string): string {
  return withWireLineEnds(qp.wrap(qp.encode(content), 76));
}

/** Literal text with the token's characters [from, to) between each two literals. */
interface Template {
  literals: string[];
  holes: number[];
  chars: number;
}

function fill(template: Template, token: string): string {
  const { literals, holes } = template;
  let out = literals[0]!;
  for (let i = 0; i < holes.length; i += 2) {
    const from = holes[i]!;
    const to = holes[i + 1]!;
    out += (from === 0 && to === token.length ? token : token.slice(from, to)) + literals[i / 2 + 1]!;
  }
  return out;
}

/**
 * The template from one body encoded with stand-in `a` and with stand-in `b`: the characters where the
 * two differ are the token's, `occurrences` times over, in order. Null when they do not line up so.
 */
export function templateOf(encodedA: string, encodedB: string, a: string, b: string, occurrences: number) {
  if (encodedA.length !== encodedB.length) return null;
  const literals: string[] = [];
  const holes: number[] = [];
  let literalStart = 0;
  let previous = -2;
  let k = 0;
  let count = 0;
  for (let i = 0; i < encodedA.length; i++) {
    if (encodedA.charCodeAt(i) === encodedB.charCodeAt(i)) continue;
    if (encodedA.charCodeAt(i) !== a.charCodeAt(k) || encodedB.charCodeAt(i) !== b.charCodeAt(k)) return null;
    if (i === previous + 1 && k !== 0) {
      holes[holes.length - 1] = k + 1;
    } else {
      literals.push(encodedA.slice(literalStart, i));
      holes.push(k, k + 1);
    }
    previous = i;
    literalStart = i + 1;
    k = (k + 1) % a.length;
    count++;
  }
  if (k !== 0 || count !== occurrences * a.length) return null;
  literals.push(encodedA.slice(literalStart));
  return { literals, holes, chars: encodedA.length };
}

interface Entry {
  /** The body's text around the token's places: the body, whatever the token. */
  segments: string[];
  /** 7bit: printable ASCII in short lines. */
  plain: boolean;
  nonLatin: number;
  /** Latin letters outside the token's places. */
  latin: number;
  /** The 7bit body, or the quoted-printable one once it was needed; null when it cannot be templated. */
  template?: Template | null;
  chars: number;
}

/*
 * Bodies by a fingerprint: the token's length, the body's, and a hash of every fourth character around
 * the token's places. Hashing a whole 10 kB body as a map key (or building the key at all) cost more than
 * the rest of the lookup; two bodies with one fingerprint are told apart by comparing them whole.
 */
const entries = new Map<string, Entry[]>();
const MAX_PER_FINGERPRINT = 8;
let rememberedChars = 0;
/** Copies whose body came from a remembered one (for tests, and a look at a running worker). */
let filledCopies = 0;
const standIns = new Map<number, [string, string]>();
/**
 * Bodies seen once, by fingerprint and a hash of the whole body: a key of a few dozen characters each,
 * oldest forgotten first. A hash that matches another body only makes that body remembered (and it is
 * still compared whole before any copy is filled from it).
 */
const seenOnce = new Map<string, true>();
const MAX_SEEN_ONCE = 16_384;

/**
 * Two stand-ins of a token's length, from the token's alphabet, different in every position: a body
 * encoded with each differs exactly where the token's characters went.
 */
export function standInsFor(length: number): [string, string] {
  let pair = standIns.get(length);
  if (!pair) {
    let a = '';
    let b = '';
    while (a.length < length) {
      const c = TOKEN_ALPHABET[randomInt(64)]!;
      const others = TOKEN_ALPHABET.replace(c, '');
      a += c;
      b += others[randomInt(others.length)]!;
    }
    pair = [a, b];
    standIns.set(length, pair);
  }
  return pair;
}

function fingerprintOf(content: string, places: number[], tokenLength: number): string {
  let hash = 0x811c9dc5;
  let from = 0;
  for (let k = 0; k <= places.length; k++) {
    const to = k < places.length ? places[k]! : content.length;
    for (let j = from; j < to; j += 4) hash = Math.imul(hash ^ content.charCodeAt(j), 0x01000193);
    hash = Math.imul(hash ^ (to - from), 0x01000193);
    from = to + tokenLength;
  }
  return `${tokenLength}:${content.length}:${places.length}:${hash >>> 0}`;
}

/** A hash of every character around the token's places (told apart from the fingerprint's sample). */
function wholeHashOf(content: string, places: number[], tokenLength: number): number {
  let hash = 0x811c9dc5;
  let from = 0;
  for (let k = 0; k <= places.length; k++) {
    const to = k < places.length ? places[k]! : content.length;
    for (let j = from; j < to; j++) hash = Math.imul(hash ^ content.charCodeAt(j), 0x01000193);
    from = to + tokenLength;
  }
  return hash >>> 0;
}

function sameBody(entry: Entry, content: string, places: number[], tokenLength: number): boolean {
  const { segments } = entry;
  if (segments.length !== places.length + 1) return false;
  let from = 0;
  for (let k = 0; k < segments.length; k++) {
    const to = k < places.length ? places[k]! : content.length;
    const segment = segments[k]!;
    // A slice and ===, not startsWith(segment, from): that one reads a rope character by character.
    if (segment.length !== to - from || content.slice(from, to) !== segment) return false;
    from = to + tokenLength;
  }
  return true;
}

function remember(fingerprint: string, bucket: Entry[], entry: Entry): void {
  bucket.push(entry);
  rememberedChars += entry.chars;
  if (bucket.length > MAX_PER_FINGERPRINT) rememberedChars -= bucket.shift()!.chars;
  let count = 0;
  for (const b of entries.values()) count += b.length;
  for (const [oldFingerprint, old] of entries) {
    if (count <= MAX_ENTRIES && rememberedChars <= MAX_CHARS) break;
    if (oldFingerprint === fingerprint) continue;
    entries.delete(oldFingerprint);
    count -= old.length;
    for (const e of old) rememberedChars -= e.chars;
  }
}

/**
 * The part's transfer encoding and encoded body (wire line ends), the same as encoding `content`
 * directly. `token`: the message's outbox token, the one thing in the body that differs between copies
 * of one message; without it, or when the body does not hold it, the body is encoded directly.
 */
export function encodeTextBody(
  content: string,
  token?: string | null,
): { encoding: TransferEncoding; body: string } {
  if (!token || !TOKEN_PATTERN.test(token)) return encodeDirect(content);
  const places: number[] = [];
  for (let at = content.indexOf(token); at !== -1; at = content.indexOf(token, at + token.length)) {
    places.push(at);
  }
  if (places.length === 0) return encodeDirect(content);
  const occurrences = places.length;

  const fingerprint = fingerprintOf(content, places, token.length);
  let bucket = entries.get(fingerprint);
  let entry = bucket?.find((e) => sameBody(e, content, places, token.length));
  if (bucket) {
    // Most recently used last: the first ones in the map are the ones to let go.
    entries.delete(fingerprint);
    entries.set(fingerprint, bucket);
  } else {
    bucket = [];
    entries.set(fingerprint, bucket);
  }
  if (!entry) {
    // A body is remembered from its second copy on. Bodies that differ in every message (a merge tag
    // with a value per contact: bench/dispatch's "Lead17") never repeat, and remembering each cost
    // two more encodings of it (the template's stand-ins) and kept ~20 kB per body alive long enough
    // for the garbage collector to move it to the old generation.
    const seenKey = `${fingerprint}:${wholeHashOf(content, places, token.length)}`;
    if (!seenOnce.delete(seenKey)) {
      if (bucket.length === 0) entries.delete(fingerprint);
      seenOnce.set(seenKey, true);
      if (seenOnce.size > MAX_SEEN_ONCE) seenOnce.delete(seenOnce.keys().next().value!);
      return encodeDirect(content);
    }
    const segments = [content.slice(0, places[0])];
    for (let k = 0; k < occurrences; k++) {
      segments.push(content.slice(places[k]! + token.length, places[k + 1] ?? content.length));
    }
    const plain = isPlainText(content) && !hasLongerLines(content, 76);
    const counts = characterCounts(content);
    entry = {
      segments,
      plain,
      nonLatin: counts.nonLatin,
      latin: counts.latin - occurrences * latinLetters(token),
      chars: content.length,
    };
    if (plain) {
      const literals = segments.map(withWireLineEnds);
      entry.template = {
        literals,
        holes: literals.slice(1).flatMap(() => [0, token.length]),
        chars: content.length,
      };
      entry.chars += content.length;
    }
    remember(fingerprint, bucket, entry);
  }

  if (entry.plain) {
    filledCopies++;
    return { encoding: '7bit', body: fill(entry.template!, token) };
  }
  // The rule counts the token's own letters too.
  if (entry.nonLatin >= entry.latin + occurrences * latinLetters(token)) {
    return { encoding: 'base64', body: base64.wrap(base64.encode(content), 76) };
  }
  if (entry.template === undefined) {
    const direct = quotedPrintable(content);
    const [a, b] = standInsFor(token.length);
    const template = templateOf(
      quotedPrintable(entry.segments.join(a)),
      quotedPrintable(entry.segments.join(b)),
      a,
      b,
      occurrences,
    );
    // Checked once against the direct encoding; a body that does not template is always encoded directly.
    entry.template = template && fill(template, token) === direct ? template : null;
    if (entry.template) {
      entry.chars += entry.template.chars;
      rememberedChars += entry.template.chars;
    }
    return { encoding: 'quoted-printable', body: direct };
  }
  if (!entry.template) return { encoding: 'quoted-printable', body: quotedPrintable(content) };
  filledCopies++;
  return { encoding: 'quoted-printable', body: fill(entry.template, token) };
}

/** For tests: forget every remembered body. */
export function clearTextBodyCache(): void {
  entries.clear();
  seenOnce.clear();
  rememberedChars = 0;
  filledCopies = 0;
}

/** For tests: how many bodies are remembered, and how many copies were filled from them. */
export function textBodyCacheStats(): { remembered: number; filled: number } {
  let remembered = 0;
  for (const bucket of entries.values()) remembered += bucket.length;
  return { remembered, filled: filledCopies };
}
