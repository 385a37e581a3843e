import type { FastifyInstance } from 'fastify';
import { AppError } from './errors';

/*
 * Text PostgreSQL cannot store. `text` and `jsonb` refuse U+0000 (22021 / 22P05), and a lone UTF-16
 * surrogate is not Unicode at all: jsonb refuses its `\ud800` escape and UTF-8 turns it into garbage. No
 * person types either, so the request is refused with a 400 before any handler sees it, instead of a 500
 * from deep inside a query (or, worse, a value silently changed on the way in).
 */

export const UNSTORABLE_TEXT_MESSAGE =
  'Text may not contain NUL characters (\\u0000) or unpaired surrogates (invalid Unicode).';

// NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching NUL is the point.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, 'g');

function isStorable(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/**
 * The path (`name`, `blocks.0.text`) of the first string, object key included, that PostgreSQL cannot
 * store, or null. Walks iteratively: a deeply nested JSON body must not overflow the stack.
 */
export function findUnstorableText(value: unknown): string | null {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (typeof node === 'string') {
      if (!isStorable(node)) return path;
    } else if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], path ? `${path}.${i}` : String(i)]);
    } else if (node !== null && typeof node === 'object' && !Buffer.isBuffer(node)) {
      for (const [key, child] of Object.entries(node)) {
        const childPath = path ? `${path}.${key}` : key;
        if (!isStorable(key)) return childPath;
        stack.push([child, childPath]);
      }
    }
  }
  return null;
}

/**
 * Text read from a file (CSV cells, file names) with each NUL and unpaired surrogate replaced by U+FFFD,
 * the replacement character decoders use for what they cannot read: one bad byte does not lose a row.
 */
export function toStorableText(text: string): string {
  return UNSTORABLE.test(text) ? text.replace(UNSTORABLE_ALL, '\ufffd') : text;
}

const LONE_SURROGATES = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text with each unpaired surrogate replaced by U+FFFD (what UTF-8 encoding would silently do anyway). */
export function toWellFormedText(text: string): string {
  LONE_SURROGATES.lastIndex = 0;
  return LONE_SURROGATES.test(text) ? text.replace(LONE_SURROGATES, '\ufffd') : text;
}

/** At most `max` UTF-16 units, never ending in the first half of a surrogate pair. */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** Throws the 400 for a value with unstorable text (`where` names the part: body, query, path). */
export function assertStorableText(value: unknown, where: string): void {
  const path = findUnstorableText(value);
  if (path === null) return;
  const field = path ? `${where}.${safeLabel(path)}` : where;
  throw new AppError('bad_request', UNSTORABLE_TEXT_MESSAGE, {
    errors: [{ path: field, message: UNSTORABLE_TEXT_MESSAGE }],
  });
}

/** The offending path itself may hold the bad characters (an object key): never echo them back. */
function safeLabel(path: string): string {
  return toStorableText(path);
}

/**
 * One hook for every route: path parameters, query string and JSON body are checked after parsing and
 * before validation. Multipart fields and raw bodies (the Paystack webhook) are checked where they are read.
 */
export function registerInputHygiene(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    assertStorableText(request.params, 'params');
    assertStorableText(request.query, 'query');
    assertStorableText(request.body, 'body');
  });
}
