import { seededRandom } from '@server/lib/seeded-random';

/*
 * Spintax: `{Hi|Hello|Good morning}` picks one option per recipient, so a campaign's copies are not all
 * identical. Groups nest (`{Hi|{Hello|Hey} there}`) and may hold merge tags (`{Hi {{ firstName }}|Hello}`).
 *
 * Liquid's own braces are never spintax: `{{ … }}` and `{% … %}` are copied whole (a `|` inside them is a
 * filter), and so is a `<style>` element (CSS braces). A single-brace group without a `|` is ordinary text
 * (`{note}` stays `{note}`), as is an unclosed `{`.
 *
 * The choice is deterministic for a seed (the contact), so a preview shows exactly what will be sent.
 * Templates are parsed once and cached; spinning a parsed template is a walk over its nodes.
 */

type SpinNode = string | SpinGroup;
interface SpinGroup {
  options: SpinNode[][];
}

export interface ParsedSpintax {
  nodes: SpinNode[];
  /** False when the text has no group: spinning returns it unchanged without a walk. */
  hasGroups: boolean;
}

const MAX_DEPTH = 20;
const CACHE_SIZE = 2_000;
const cache = new Map<string, ParsedSpintax>();

function remember(source: string, parsed: ParsedSpintax): ParsedSpintax {
  if (cache.size >= CACHE_SIZE) {
    // Maps keep insertion order: drop the oldest entry.
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(source, parsed);
  return parsed;
}

/** The end (exclusive) of a Liquid construct starting at `i` (`{{` or `{%`), or the text's end if unclosed. */
function liquidEnd(source: string, i: number): number {
  const close = source[i + 1] === '{' ? '}}' : '%}';
  const end = source.indexOf(close, i + 2);
  return end === -1 ? source.length : end + 2;
}

function styleEnd(source: string, i: number): number {
  const end = source.toLowerCase().indexOf('</style', i);
  return end === -1 ? source.length : end;
}

function isStyleStart(source: string, i: number): boolean {
  return source.charCodeAt(i) === 60 /* < */ && /^<style[\s>]/i.test(source.slice(i, i + 7));
}

interface Cursor {
  source: string;
  pos: number;
}

/**
 * Reads text up to an unmatched `}` or `|` (inside a group) or the end. Returns the nodes and the
 * character that stopped it ('' at the end).
 */
function readSequence(cursor: Cursor, depth: number): { nodes: SpinNode[]; stop: string; groups: boolean } {
  const { source } = cursor;
  const nodes: SpinNode[] = [];
  let text = '';
  let groups = false;
  while (cursor.pos < source.length) {
    const ch = source[cursor.pos]!;
    if (ch === '{') {
      const next = source[cursor.pos + 1];
      if (next === '{' || next === '%') {
        const end = liquidEnd(source, cursor.pos);
        text += source.slice(cursor.pos, end);
        cursor.pos = end;
        continue;
      }
      const group = depth < MAX_DEPTH ? readGroup(cursor, depth + 1) : null;
      if (group) {
        if (text) nodes.push(text);
        text = '';
        nodes.push(group);
        groups = true;
      } else {
        text += ch;
        cursor.pos += 1;
      }
      continue;
    }
    if (depth > 0 && (ch === '}' || ch === '|')) {
      if (text) nodes.push(text);
      return { nodes, stop: ch, groups };
    }
    if (ch === '<' && isStyleStart(source, cursor.pos)) {
      const end = styleEnd(source, cursor.pos);
      text += source.slice(cursor.pos, end);
      cursor.pos = end;
      continue;
    }
    text += ch;
    cursor.pos += 1;
  }
  if (text) nodes.push(text);
  return { nodes, stop: '', groups };
}

/** A group at `cursor.pos` (a `{`), or null (cursor unchanged) when it is not one. */
function readGroup(cursor: Cursor, depth: number): SpinGroup | null {
  const start = cursor.pos;
  cursor.pos += 1;
  const options: SpinNode[][] = [];
  for (;;) {
    const { nodes, stop } = readSequence(cursor, depth);
    options.push(nodes);
    if (stop === '|') {
      cursor.pos += 1;
      continue;
    }
    if (stop === '}' && options.length > 1) {
      cursor.pos += 1;
      return { options };
    }
    // Unclosed, or a `{…}` with one option: plain text.
    cursor.pos = start;
    return null;
  }
}

export function parseSpintax(source: string): ParsedSpintax {
  const cached = cache.get(source);
  if (cached) return cached;
  // Fast path: a group needs a `|`.
  if (!source.includes('|')) return remember(source, { nodes: [source], hasGroups: false });
  const cursor = { source, pos: 0 };
  const { nodes, groups } = readSequence(cursor, 0);
  return remember(source, { nodes, hasGroups: groups });
}

/** cyrb53-style 32-bit hash of a string: fast, well mixed, stable across processes. */
export function hashString(value: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < value.length; i++) {
    const ch = value.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h2 ^ h1) >>> 0;
}

function walk(nodes: SpinNode[], next: () => number, out: string[]): void {
  for (const node of nodes) {
    if (typeof node === 'string') out.push(node);
    else walk(node.options[Math.floor(next() * node.options.length)]!, next, out);
  }
}

/** The text with each group replaced by one option, the same for the same seed. */
export function spin(source: string, seed: string): string {
  const parsed = parseSpintax(source);
  if (!parsed.hasGroups) return source;
  const out: string[] = [];
  walk(parsed.nodes, seededRandom(hashString(seed)), out);
  return out.join('');
}

/** Every option of every group, side by side: what the checks read (merge tags, links, spam words). */
export function flattenSpintax(source: string): string {
  const parsed = parseSpintax(source);
  if (!parsed.hasGroups) return source;
  const out: string[] = [];
  const visit = (nodes: SpinNode[]) => {
    for (const node of nodes) {
      if (typeof node === 'string') out.push(node);
      else
        node.options.forEach((option, index) => {
          if (index > 0) out.push(' ');
          visit(option);
        });
    }
  };
  visit(parsed.nodes);
  return out.join('');
}

/** How many different texts the spintax can produce (capped), for the editor's hint. */
export function countSpinVariants(source: string, cap = 1_000_000): number {
  const parsed = parseSpintax(source);
  const count = (nodes: SpinNode[]): number => {
    let total = 1;
    for (const node of nodes) {
      if (typeof node === 'string') continue;
      let sum = 0;
      for (const option of node.options) sum += count(option);
      total = Math.min(cap, total * sum);
    }
    return total;
  };
  return count(parsed.nodes);
}
