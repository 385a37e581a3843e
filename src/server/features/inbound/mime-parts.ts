/*
 * A small, bounded MIME walker over a raw message, for the parts mailparser flattens away: the
 * machine-readable halves of delivery and feedback reports (message/delivery-status,
 * message/feedback-report) and the original message a report carries (message/rfc822,
 * text/rfc822-headers). Inbound mail is hostile input: depth, part count and size are capped.
 */

export interface MimePart {
  /** Lower-cased header names; the first occurrence of each, unfolded. */
  headers: Map<string, string>;
  /** type/subtype, lower-cased; text/plain when absent. */
  contentType: string;
  params: Record<string, string>;
  /** The decoded body (transfer encoding undone), as text. */
  body: string;
  /** Children of a multipart, or the one message inside message/rfc822. */
  parts: MimePart[];
}

const MAX_DEPTH = 6;
const MAX_PARTS = 64;
/** Reports put their machine-readable parts first; nothing past this is needed to classify. */
export const MAX_WALK_CHARS = 2 * 1024 * 1024;

export function rawToText(raw: Buffer | string): string {
  const text = typeof raw === 'string' ? raw : raw.toString('utf8');
  return text.length > MAX_WALK_CHARS ? text.slice(0, MAX_WALK_CHARS) : text;
}

/** Header block → map of lower-cased names to unfolded values (first occurrence wins). */
export function parseHeaderBlock(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  let name: string | null = null;
  let value = '';
  const flush = () => {
    if (name !== null && !headers.has(name)) headers.set(name, value.trim());
  };
  for (const line of block.split(/\r?\n/)) {
    if (/^[ \t]/.test(line) && name !== null) {
      value += ` ${line.trim()}`;
      continue;
    }
    flush();
    const colon = line.indexOf(':');
    if (colon <= 0) {
      name = null;
      continue;
    }
    name = line.slice(0, colon).trim().toLowerCase();
    value = line.slice(colon + 1);
  }
  flush();
  return headers;
}

/** `type/subtype; a=b; c="d"` → its type and parameters (names lower-cased). */
export function parseContentType(value: string | undefined): {
  contentType: string;
  params: Record<string, string>;
} {
  if (!value) return { contentType: 'text/plain', params: {} };
  const [type = '', ...rest] = splitParams(value);
  const params: Record<string, string> = {};
  for (const item of rest) {
    const eq = item.indexOf('=');
    if (eq <= 0) continue;
    const key = item.slice(0, eq).trim().toLowerCase();
    let val = item.slice(eq + 1).trim();
    if (val.startsWith('"') && val.endsWith('"') && val.length >= 2)
      val = val.slice(1, -1).replace(/\\(.)/g, '$1');
    params[key] = val;
  }
  return { contentType: type.trim().toLowerCase() || 'text/plain', params };
}

/** Splits on semicolons outside quotes. */
function splitParams(value: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    if (ch === '"' && value[i - 1] !== '\\') quoted = !quoted;
    if (ch === ';' && !quoted) {
      out.push(current);
      current = '';
    } else current += ch;
  }
  out.push(current);
  return out;
}

function splitHeadersAndBody(text: string): { head: string; body: string } {
  const match = /\r?\n\r?\n/.exec(text);
  if (!match) return { head: text, body: '' };
  return { head: text.slice(0, match.index), body: text.slice(match.index + match[0].length) };
}

function decodeQuotedPrintable(body: string): string {
  const bytes: number[] = [];
  const soft = body.replace(/=\r?\n/g, '');
  for (let i = 0; i < soft.length; i++) {
    const ch = soft[i]!;
    if (ch === '=' && /^[0-9A-Fa-f]{2}$/.test(soft.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      for (const byte of Buffer.from(ch, 'utf8')) bytes.push(byte);
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return decodeQuotedPrintable(body);
    default:
      return body;
  }
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Walks the raw message into a tree of parts. Never throws on malformed input. */
export function parseMimeTree(raw: Buffer | string): MimePart {
  const budget = { parts: 0 };
  return parsePart(rawToText(raw), 0, budget);
}

function parsePart(text: string, depth: number, budget: { parts: number }): MimePart {
  budget.parts++;
  const { head, body: rawBody } = splitHeadersAndBody(text);
  const headers = parseHeaderBlock(head);
  const { contentType, params } = parseContentType(headers.get('content-type'));
  const part: MimePart = { headers, contentType, params, body: '', parts: [] };
  const canDescend = depth < MAX_DEPTH && budget.parts < MAX_PARTS;

  if (contentType.startsWith('multipart/') && params.boundary) {
    const delimiter = new RegExp(`^--${escapeRegExp(params.boundary)}(--)?[ \\t]*\\r?$`, 'm');
    const pieces: string[] = [];
    let rest = rawBody;
    let match = delimiter.exec(rest);
    // Text before the first delimiter is the preamble: skipped.
    while (match) {
      rest = rest.slice(match.index + match[0].length).replace(/^\n/, '');
      if (match[1] === '--') break;
      const next = delimiter.exec(rest);
      pieces.push(next ? rest.slice(0, next.index).replace(/\r?\n$/, '') : rest);
      match = next;
    }
    for (const piece of pieces) {
      if (!canDescend || budget.parts >= MAX_PARTS) break;
      part.parts.push(parsePart(piece, depth + 1, budget));
    }
    return part;
  }

  const decoded = decodeBody(rawBody, headers.get('content-transfer-encoding'));
  part.body = decoded;
  if ((contentType === 'message/rfc822' || contentType === 'message/global') && canDescend) {
    part.parts.push(parsePart(decoded, depth + 1, budget));
  }
  return part;
}

/** Every part of the tree, depth first (the root included). */
export function flattenParts(root: MimePart): MimePart[] {
  const out: MimePart[] = [];
  const visit = (part: MimePart) => {
    out.push(part);
    for (const child of part.parts) visit(child);
  };
  visit(root);
  return out;
}

/**
 * A report body (delivery-status, feedback-report) is groups of header-style fields separated by
 * blank lines: the per-message group, then one per recipient.
 */
export function parseFieldGroups(body: string): Map<string, string>[] {
  return body
    .split(/\r?\n[ \t]*\r?\n/)
    .map((group) => group.trim())
    .filter((group) => group.length > 0)
    .map((group) => parseHeaderBlock(group));
}
