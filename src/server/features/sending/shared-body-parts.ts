import { composeOutgoing, outgoingMailOptions } from './compose-outgoing';
import { buildMailOptions } from './message-envelope';
import type { SharedBody } from './outbox-bodies';
import { composeRawMessageFromParts, encodedPart, hasBareLineEnd, type PartTemplate } from './raw-message';
import { fillSenderPlaceholders, type SenderValues, withSenderValues } from './sender-placeholders';
import { characterCounts, latinLetters, standInsFor, templateOf } from './text-part-body';

/*
 * The copies of a newsletter composed from parts encoded once. A claimed row that names a shared body
 * (outbox-bodies.ts) holds that body with its own token in place of the body's stand-in, and nothing
 * else of its own in the parts: the sending account's values, the footer and the tracking base are the
 * same for every copy sent by one account. So the text and HTML parts (sender values filled, footer
 * added, encoded) are made once per body and account, with holes where the token goes, and each copy
 * is its headers plus the parts with its own token written in, straight into the message's Buffer.
 * Before, every copy built its ~10 kB HTML again (sender values, footer), searched it for its token,
 * fingerprinted and compared it to find its encoding, and joined the message as strings before encoding
 * them as UTF-8: most of composing's CPU and a good part of the garbage a worker made per message.
 *
 * The holes are found as text-part-body.ts finds them: the parts built with two stand-ins of the
 * token's length that differ in every character, compared. That is exact because a token's characters
 * are neutral to the encodings (text-part-body.ts says why), and the choice between quoted-printable and
 * base64, which counts the token's letters, is kept only when no token could change it. A body is
 * templated from its second copy by an account (a body sent once is composed directly), and the
 * template is checked against that copy's direct build, byte for byte; a body that does not template,
 * or fails the check, is composed directly for good. Every copy's headers are its own, as before.
 */

/** composeOutgoing's input without the parts' content: they come from the body. */
type ComposeInput = Omit<Parameters<typeof composeOutgoing>[0], 'content'>;

interface Parts {
  text: PartTemplate;
  html: PartTemplate | null;
}

/** 'seen': one copy composed so far; 'direct': the parts do not template. */
type Slot = 'seen' | 'direct' | Parts;

/** By body (the dispatcher's cached copy, outbox-bodies.ts), then by what else goes into the parts. */
let slots = new WeakMap<SharedBody, Map<string, Slot>>();
/** Accounts, tracking domains and token lengths per body: past this, start again. */
const SLOTS_PER_BODY = 256;
let templateCount = 0;
let filledCopies = 0;

function senderOf(input: ComposeInput): SenderValues {
  const { account } = input;
  return { fromName: account.fromName, fromEmail: account.fromEmail, company: account.company };
}

/** Everything besides the body and the token that the parts depend on. */
function slotKey(input: ComposeInput): string {
  const { account } = input;
  return JSON.stringify([
    input.token.length,
    input.kind,
    input.trackingBaseUrl,
    account.fromName,
    account.fromEmail,
    account.company ?? null,
    account.postalAddress,
  ]);
}

/** The parts as composeOutgoing makes them, for `token` in place of the body's stand-in. */
function buildParts(input: ComposeInput, body: SharedBody, token: string) {
  const content = withSenderValues(
    { subject: '', html: body.html.replaceAll(body.standIn, token), text: body.text },
    senderOf(input),
  );
  const mail = buildMailOptions({
    messageId: input.messageId,
    token,
    trackingBaseUrl: input.trackingBaseUrl,
    from: { name: input.account.fromName, email: input.account.fromEmail },
    replyTo: null,
    to: input.to,
    subject: '',
    html: content.html,
    text: content.text ?? '',
    postalAddress: input.account.postalAddress,
    senderName: input.account.fromName,
    unsubscribeMailto: null,
    kind: input.kind,
  });
  return {
    text: { content: mail.text, ...encodedPart('text/plain', mail.text) },
    html: mail.html === '' ? null : { content: mail.html, ...encodedPart('text/html', mail.html) },
  };
}

function occurrences(content: string, token: string): number {
  let n = 0;
  for (let at = content.indexOf(token); at !== -1; at = content.indexOf(token, at + token.length)) n++;
  return n;
}

type BuiltPart = ReturnType<typeof buildParts>['text'];

/** One part's template from its builds with stand-ins `a` and `b`; null when it cannot be one. */
function partTemplate(withA: BuiltPart, withB: BuiltPart, a: string, b: string) {
  if (withA.encoding === 'base64' || withA.encoding !== withB.encoding) return null;
  const count = occurrences(withA.content, a);
  if (count !== occurrences(withB.content, b)) return null;
  if (withA.encoding === 'quoted-printable') {
    // Quoted-printable while the letters outnumber the rest, the token's letters included: kept only
    // when a token without letters would leave it so.
    const { nonLatin, latin } = characterCounts(withA.content);
    if (nonLatin >= latin - count * latinLetters(a)) return null;
  }
  return templateOf(withA.part, withB.part, a, b, count);
}

function fillString(template: { literals: string[]; holes: number[] }, token: string): string {
  let out = template.literals[0]!;
  for (let i = 0; i < template.holes.length; i += 2) {
    out += token.slice(template.holes[i], template.holes[i + 1]) + template.literals[i / 2 + 1]!;
  }
  return out;
}

function asBuffers(template: { literals: string[]; holes: number[] }): PartTemplate | null {
  const literals: Buffer[] = [];
  let bytes = 0;
  let crlfOnly = true;
  for (const literal of template.literals) {
    // The encoded parts are ASCII; a literal that is not could not be written byte for byte.
    if (/[^\p{ASCII}]/u.test(literal)) return null;
    literals.push(Buffer.from(literal, 'latin1'));
    bytes += literal.length;
    if (hasBareLineEnd(literal)) crlfOnly = false;
  }
  return { literals, holes: template.holes, bytes, crlfOnly };
}

/** The parts with holes, checked against this copy's own build; 'direct' when they cannot be had. */
function templateParts(input: ComposeInput, body: SharedBody): 'direct' | Parts {
  const [a, b] = standInsFor(input.token.length);
  const withA = buildParts(input, body, a);
  const withB = buildParts(input, body, b);
  const direct = buildParts(input, body, input.token);
  const text = partTemplate(withA.text, withB.text, a, b);
  if (!text || fillString(text, input.token) !== direct.text.part) return 'direct';
  let html = null;
  if (withA.html || withB.html || direct.html) {
    if (!withA.html || !withB.html || !direct.html) return 'direct';
    html = partTemplate(withA.html, withB.html, a, b);
    if (!html || fillString(html, input.token) !== direct.html.part) return 'direct';
  }
  const textParts = asBuffers(text);
  const htmlParts = html ? asBuffers(html) : null;
  if (!textParts || (html && !htmlParts)) return 'direct';
  templateCount++;
  return { text: textParts, html: htmlParts };
}

/**
 * composeOutgoing for a copy of a shared body, whose HTML is that body's with the copy's token in place
 * of its stand-in (`input.content.text` is its text): the same bytes, from parts encoded once. The HTML
 * is built only for a copy composed directly.
 */
export function composeFromSharedBody(
  input: ComposeInput & { content: { subject: string; text: string }; body: SharedBody },
): {
  from: string;
  to: string;
  raw: Buffer;
} {
  const { body } = input;
  let perBody = slots.get(body);
  if (!perBody) {
    perBody = new Map();
    slots.set(body, perBody);
  }
  const key = slotKey(input);
  let slot = perBody.get(key);
  if (slot === 'seen') {
    slot = templateParts(input, body);
    perBody.set(key, slot);
  }
  if (slot === undefined || slot === 'direct') {
    if (slot === undefined) {
      if (perBody.size >= SLOTS_PER_BODY) perBody.clear();
      perBody.set(key, 'seen');
    }
    const html = body.html.replaceAll(body.standIn, input.token);
    const { mail, raw } = composeOutgoing({ ...input, content: { ...input.content, html } });
    return { from: mail.from.address, to: mail.to.address, raw };
  }
  const mail = outgoingMailOptions(input, {
    subject: fillSenderPlaceholders(input.content.subject, senderOf(input), 'text'),
    // The parts are the slot's: only the headers are built here.
    html: '',
    text: '',
  });
  filledCopies++;
  return {
    from: mail.from.address,
    to: mail.to.address,
    raw: composeRawMessageFromParts(mail, slot, input.token),
  };
}

/** For tests: forget every template. */
export function clearSharedBodyParts(): void {
  slots = new WeakMap();
  templateCount = 0;
  filledCopies = 0;
}

/** For tests: templates made and copies filled from them since the last clear. */
export function sharedBodyPartStats(): { templates: number; filled: number } {
  return { templates: templateCount, filled: filledCopies };
}
