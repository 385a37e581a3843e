import { BUILT_IN_MERGE_TAGS, type MergeTagProblems, UNSUBSCRIBE_TAG_PATTERN } from '@shared/personalize';
// The ES module build: loaded as one module, its source held once (src/server/types/liquidjs-esm.d.ts).
import { Liquid, type Template } from 'liquidjs/dist/liquid.node.mjs';
import { flattenSpintax } from './spintax';

/*
 * Merge tags are Liquid (LiquidJS: no eval, no file access here). One engine for the process; each
 * template text is parsed once and kept (bounded), so rendering 100,000 messages parses each step once.
 *
 * - Only harmless tags are allowed: if/unless/case, assign, echo, comments. Loops, includes,
 *   layouts and `raw` are removed from the engine, so a template using them fails to parse (and the
 *   pre-launch check names the tag) instead of touching files or looping for ever.
 * - Unknown filters are errors at parse time (strictFilters); unknown variables render empty (a contact
 *   without a company gets "" or its fallback, never "{{ company }}").
 * - In HTML bodies every output is HTML-escaped after its filters (a contact named "<script>" stays text);
 *   `raw` is redefined as a plain pass-through so it cannot switch that off. Subjects are not escaped: they
 *   are header text.
 */

// No `capture`: capturing a variable twice into itself doubles a string per line, past the memory limit's
// reach (it counts filter allocations, not captured output). `assign` doubling is caught by memoryLimit.
const ALLOWED_TAGS = new Set(['if', 'unless', 'case', 'comment', 'assign', 'echo', '#']);

let escapeOutput = false;

function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

function outputText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(outputText).join('');
  return String(value);
}

const engine = new Liquid({
  strictFilters: true,
  strictVariables: false,
  ownPropertyOnly: true,
  // Nothing is ever read from disk: no root, and the file tags are gone anyway.
  templates: {},
  // Set per render (renderSync is synchronous, so nothing interleaves): HTML bodies escape, subjects do not.
  // biome-ignore lint/suspicious/noExplicitAny: LiquidJS types this as string, but the unescaped path must hand the value back as it is.
  outputEscape: (value: any): string => (escapeOutput ? escapeHtml(outputText(value)) : value),
  // DoS guards for hostile templates (assign/capture doubling a string, huge filter chains).
  parseLimit: 4 * 1024 * 1024,
  memoryLimit: 1e7,
});
for (const name of Object.keys(engine.tags)) {
  if (!ALLOWED_TAGS.has(name)) delete engine.tags[name];
}
engine.registerFilter('raw', (value: unknown) => value);

/** A template made only of text and `{{ path }}` / `{{ path | default: "x" }}`: rendered without Liquid. */
type FastPart = string | { path: string[]; fallback: string | null };

export interface CompiledTemplate {
  templates: Template[] | null;
  /** The same template as plain parts when it needs nothing else (most emails): far faster to render. */
  fast: FastPart[] | null;
  /** The parse error in plain words, when the text does not parse. */
  error: string | null;
  /** The variables the template reads from the contact (assigned ones excluded), as paths. */
  variables: string[][];
}

const CACHE_SIZE = 5_000;
const compiled = new Map<string, CompiledTemplate>();

function friendlyParseError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const tag = /tag "?([\w#]+)"? not found/i.exec(message);
  if (tag) return `{% ${tag[1]} %} cannot be used in emails`;
  const filter = /undefined filter: ([\w-]+)/i.exec(message);
  if (filter) return `Unknown filter "${filter[1]}"`;
  if (/output .* not closed/i.test(message)) return `A merge tag is not closed with }}: ${where(message)}`;
  if (/tag .* not closed/i.test(message)) return `A {% tag %} is not closed: ${where(message)}`;
  return message.replace(/\s*(File|,)\s*line:\d+, col:\d+.*$/s, '').slice(0, 200);
}

function where(message: string): string {
  const quoted = /"([^"]{0,60})/.exec(message)?.[1] ?? '';
  const line = /line:(\d+)/.exec(message)?.[1];
  return `${quoted.trim()}${line ? ` (line ${line})` : ''}`;
}

function segmentsToPath(segments: unknown[]): string[] {
  return segments.map((segment) => (Array.isArray(segment) ? '?' : String(segment)));
}

const SIMPLE_OUTPUT =
  /^\{\{\s*([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*)\s*(?:\|\s*default\s*:\s*(?:"([^"]*)"|'([^']*)')\s*)?\}\}$/;

/** Plain parts, or null when the template uses tags, other filters, whitespace control or odd paths. */
function fastParts(source: string): FastPart[] | null {
  if (source.includes('{%')) return null;
  const parts: FastPart[] = [];
  let at = 0;
  for (;;) {
    const open = source.indexOf('{{', at);
    if (open === -1) break;
    const close = source.indexOf('}}', open + 2);
    if (close === -1) return null;
    const match = SIMPLE_OUTPUT.exec(source.slice(open, close + 2));
    if (!match) return null;
    if (open > at) parts.push(source.slice(at, open));
    const fallback = match[2] ?? match[3];
    parts.push({ path: match[1]!.split('.'), fallback: fallback === undefined ? null : fallback });
    at = close + 2;
  }
  if (at < source.length) parts.push(source.slice(at));
  return parts;
}

function lookup(scope: Record<string, unknown>, path: string[]): unknown {
  let value: unknown = scope;
  for (const segment of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

function renderFast(parts: FastPart[], scope: Record<string, unknown>, asHtml: boolean): string {
  let out = '';
  for (const part of parts) {
    if (typeof part === 'string') {
      out += part;
      continue;
    }
    const value = lookup(scope, part.path);
    // Liquid's `default`: used for undefined, null, false and the empty string.
    let text =
      value === undefined || value === null || value === false || value === ''
        ? (part.fallback ?? '')
        : typeof value === 'object'
          ? ''
          : String(value);
    if (asHtml) text = escapeHtml(text);
    out += text;
  }
  return out;
}

/** The parsed template for a text (cached), or its parse error. */
export function compileTemplate(source: string): CompiledTemplate {
  const hit = compiled.get(source);
  if (hit) return hit;
  let result: CompiledTemplate;
  if (!source.includes('{{') && !source.includes('{%')) {
    result = { templates: null, fast: null, error: null, variables: [] };
  } else {
    try {
      const templates = engine.parse(source);
      const variables = engine.globalVariableSegmentsSync(templates).map(segmentsToPath);
      result = { templates, fast: fastParts(source), error: null, variables };
    } catch (error) {
      result = { templates: null, fast: null, error: friendlyParseError(error), variables: [] };
    }
  }
  if (compiled.size >= CACHE_SIZE) {
    const oldest = compiled.keys().next().value;
    if (oldest !== undefined) compiled.delete(oldest);
  }
  compiled.set(source, result);
  return result;
}

/**
 * Whatever Liquid syntax remains in a text that failed: removed, so no recipient ever sees braces. The
 * pre-launch check blocks such a template; this is the last line of defence for a later edit.
 */
export function stripLiquid(source: string): string {
  return source
    .replace(/\{\{[\s\S]*?\}\}/g, '')
    .replace(/\{%[\s\S]*?%\}/g, '')
    .replace(/\{\{|\}\}|\{%|%\}/g, '');
}

/** Renders a template text (already spun) with the scope; `html` escapes every output. */
export function renderTemplate(
  source: string,
  scope: Record<string, unknown>,
  mode: 'html' | 'text',
  /** Tests: skip the plain-parts path to compare it with Liquid's own rendering. */
  options: { liquidOnly?: boolean } = {},
): { output: string; error: string | null } {
  const template = compileTemplate(source);
  if (template.error) return { output: stripLiquid(source), error: template.error };
  if (!template.templates) return { output: source, error: null };
  if (template.fast && !options.liquidOnly)
    return { output: renderFast(template.fast, scope, mode === 'html'), error: null };
  escapeOutput = mode === 'html';
  try {
    return { output: engine.renderSync(template.templates, scope) as string, error: null };
  } catch (error) {
    return { output: stripLiquid(source), error: friendlyParseError(error) };
  } finally {
    escapeOutput = false;
  }
}

function isKnownPath(path: string[], known: ReadonlySet<string>, fields: ReadonlySet<string>): boolean {
  const [root, second] = path;
  if (!root) return true;
  if (root === 'fields') return second === undefined || second === '?' || fields.has(second);
  return known.has(root) || fields.has(root);
}

/** The path as the author wrote it, for messages: fields.industry. */
export function pathLabel(path: string[]): string {
  return path.join('.');
}

// Mistakes from other tools: {firstName}, [firstName], *|FNAME|*, %FIRSTNAME%.
const SINGLE_BRACE = /(?<![{])\{\s*([A-Za-z_][\w.]*)\s*\}(?!\})/g;
const FOREIGN_TAG_PATTERNS: { pattern: RegExp; hint: (m: RegExpExecArray) => string }[] = [
  {
    pattern: SINGLE_BRACE,
    hint: (m) => `{${m[1]}} needs two braces: {{ ${m[1]} }}`,
  },
  {
    pattern: /\*\|([A-Z0-9_]+)\|\*/g,
    hint: (m) => `*|${m[1]}|* is another tool's merge tag; use {{ firstName }}-style tags`,
  },
  {
    pattern: /\[\s*(first_?name|last_?name|company|name)\s*\]/gi,
    hint: (m) => `[${m[1]}] is not a merge tag; write {{ ${camel(m[1]!)} }}`,
  },
];

function camel(name: string): string {
  const lower = name.toLowerCase().replace(/_/g, '');
  if (lower === 'firstname') return 'firstName';
  if (lower === 'lastname') return 'lastName';
  if (lower === 'name') return 'fullName';
  return lower;
}

function suggestExact(name: string, knownFields: readonly string[]): boolean {
  const squash = (s: string) => s.toLowerCase().replace(/[_\-\s]/g, '');
  const target = squash(name.replace(/^fields\./, ''));
  return [...BUILT_IN_MERGE_TAGS, ...knownFields].some((candidate) => squash(candidate) === target);
}

/** The built-in tags plus custom field names, spelled as a suggestion for a near miss ("frstName"). */
export function suggestTag(name: string, knownFields: readonly string[]): string | null {
  const squash = (s: string) => s.toLowerCase().replace(/[_\-\s]/g, '');
  const target = squash(name);
  const candidates = [...BUILT_IN_MERGE_TAGS, ...knownFields];
  for (const candidate of candidates) if (squash(candidate) === target) return candidate;
  let best: string | null = null;
  let bestDistance = 3;
  for (const candidate of candidates) {
    const d = distance(target, squash(candidate));
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 99;
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}

export interface TagAnalysis extends MergeTagProblems {
  /** Tags that look like an unsubscribe link (Tambari adds its own). */
  unsubscribeTags: string[];
  /** Every variable read, known or not, as paths. */
  variables: string[][];
}

/** Reads a subject and body (spintax options included) for the checks. */
export function analyzeMergeTags(input: {
  subject: string;
  html: string;
  knownFields: readonly string[];
}): TagAnalysis {
  const known = new Set(BUILT_IN_MERGE_TAGS);
  const fields = new Set(input.knownFields);
  const unknown = new Set<string>();
  const unsubscribe = new Set<string>();
  const syntaxErrors: string[] = [];
  const variables: string[][] = [];
  const seen = new Set<string>();
  for (const [label, raw] of [
    ['Subject', input.subject],
    ['Body', input.html],
  ] as const) {
    const text = flattenSpintax(raw);
    for (const tag of text.matchAll(/\{%-?\s*([A-Za-z_#][\w]*)/g)) {
      const name = tag[1]!;
      if (!ALLOWED_TAGS.has(name) && !/^(end\w+|else|elsif|when)$/.test(name)) {
        const message = `${label}: {% ${name} %} cannot be used in emails`;
        if (!syntaxErrors.includes(message)) syntaxErrors.push(message);
      }
    }
    const result = compileTemplate(text);
    if (result.error) {
      const message = `${label}: ${result.error}`;
      // A removed tag was already named above; the parser stops at the first error anyway.
      const named = result.error.startsWith('{%') && syntaxErrors.some((m) => m.startsWith(`${label}: {%`));
      if (!named && !syntaxErrors.includes(message)) syntaxErrors.push(message);
    }
    for (const path of result.variables) {
      const key = pathLabel(path);
      if (!seen.has(key)) {
        seen.add(key);
        variables.push(path);
      }
      if (UNSUBSCRIBE_TAG_PATTERN.test(path[0] ?? '') && path.length === 1) unsubscribe.add(key);
      else if (!isKnownPath(path, known, fields)) unknown.add(key);
    }
    // Outside Liquid: tags written the way other tools write them.
    const plain = stripLiquid(text).replace(/<style[\s\S]*?<\/style>/gi, '');
    for (const { pattern, hint } of FOREIGN_TAG_PATTERNS) {
      for (const match of plain.matchAll(pattern)) {
        // "{note}" in a sentence is text; "{firstName}" is a merge tag written wrong.
        if (pattern === SINGLE_BRACE && !suggestExact(match[1]!, input.knownFields)) continue;
        const message = `${label}: ${hint(match)}`;
        if (!syntaxErrors.includes(message)) syntaxErrors.push(message);
      }
    }
  }
  return { unknownTags: [...unknown], syntaxErrors, unsubscribeTags: [...unsubscribe], variables };
}

/** Unknown merge tags and Liquid syntax errors of a subject and body. */
export function findMergeTagProblems(input: {
  subject: string;
  html: string;
  knownFields: string[];
}): MergeTagProblems {
  const { unknownTags, syntaxErrors, unsubscribeTags } = analyzeMergeTags(input);
  return { unknownTags: [...unknownTags, ...unsubscribeTags], syntaxErrors };
}
