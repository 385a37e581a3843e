import { type UnsafeUrl, unsafeUrlAttributes } from '@shared/mail-links';
import { DomUtils, parseDocument } from 'htmlparser2';

/*
 * The send-time link check: every URL attribute of a personalised email (links, images, backgrounds,
 * form actions, SVG references…) is judged by the shared rule (shared/mail-links.ts) and removed when it
 * fails; the element and its text stay. It runs on the HTML after merge values are substituted — a
 * contact whose company is "javascript:alert(1)" placed in href="{{ company }}" is caught here — and
 * before tracking rewrites links, in renderForContact, which every path to a recipient goes through.
 *
 * Values are judged as the parser decodes them (entities, tabs in the scheme), so encoded schemes are
 * seen for what they are. Markup that browsers and this parser read differently (a comment closed by
 * `--!>`, a style element closed by `</style/>`) could hide a link from the check: it is removed too.
 */

/** Elements whose content is text to this parser; a closing tag inside means a browser may end it there. */
const RAW_TEXT_ELEMENTS = new Set([
  'script',
  'style',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
  'noscript',
  'textarea',
  'title',
  'plaintext',
]);

type AnyNode = ReturnType<typeof parseDocument>['children'][number];

/** The first unsafe URL inside an Outlook conditional comment (`<!--[if mso]>…<![endif]-->`), which Outlook reads as HTML. */
function conditionalCommentUrl(data: string, template: boolean): UnsafeUrl | null {
  if (!/^\s*\[if\b/i.test(data) || !data.includes('=')) return null;
  let found: UnsafeUrl | null = null;
  const walk = (nodes: AnyNode[]) => {
    for (const node of nodes) {
      if (found) return;
      if (node.type !== 'tag' && node.type !== 'script' && node.type !== 'style') continue;
      const element = node as { name: string; attribs: Record<string, string>; children: AnyNode[] };
      found = unsafeUrlAttributes(element.name, element.attribs, { template }).unsafe[0] ?? null;
      walk(element.children);
    }
  };
  walk(parseDocument(data.replace(/^\s*\[if[^\]]*\]>/i, '')).children);
  return found;
}

function isHazard(node: AnyNode, template = false): UnsafeUrl | null {
  if (node.type === 'comment') {
    const data = (node as { data: string }).data;
    if (data.includes('--!')) {
      return {
        element: '#comment',
        attribute: '',
        value: data,
        reason: 'a comment mail clients read differently',
      };
    }
    // Outlook-only markup (VML buttons): its link cannot be removed on its own, so the block goes.
    const inner = conditionalCommentUrl(data, template);
    return inner ? { ...inner, element: '#comment', reason: `an Outlook-only block: ${inner.reason}` } : null;
  }
  if (node.type === 'tag' || node.type === 'script' || node.type === 'style') {
    const element = node as { name: string; children: AnyNode[] };
    if (!RAW_TEXT_ELEMENTS.has(element.name)) return null;
    const text = DomUtils.textContent(element as never);
    return text.toLowerCase().includes(`</${element.name}`)
      ? {
          element: element.name,
          attribute: '',
          value: text,
          reason: `a <${element.name}> element mail clients read differently`,
        }
      : null;
  }
  return null;
}

export interface SanitizedMail {
  html: string;
  /** What was removed (the attribute; the element and its text stay), in document order. */
  removed: UnsafeUrl[];
}

// The last bodies judged: a newsletter's copies are rendered one by one, yet most are byte-identical to
// an earlier one (the same first name, or none), and the parse is most of the cost of judging one.
// Bounded in count and in size, so a worker holds a few megabytes of them at most. Found by a sample of
// the body (its length and every 64th character), then compared whole: a Map keyed by the body itself
// hashed every newly rendered body in full (~13 µs for 9 kB), where comparing with the few bodies that
// share its sample stops at their first difference.
const recentlySanitized = new Map<number, { html: string; answer: SanitizedMail }[]>();
let recentCount = 0;
const RECENT_MAX = 64;
const RECENT_MAX_CHARS = 64 * 1024;
const SAMPLE_STRIDE = 64;

function sampleOf(html: string): number {
  let sample = html.length;
  for (let i = 0; i < html.length; i += SAMPLE_STRIDE)
    sample = (Math.imul(sample, 31) + html.charCodeAt(i)) | 0;
  return sample;
}

/** The HTML with every unsafe URL attribute removed; unchanged HTML comes back byte for byte. */
export function sanitizeMailHtml(html: string): SanitizedMail {
  // No attribute anywhere, so no URL to judge (and no markup that could hide one).
  if (!html.includes('=')) return { html, removed: [] };
  if (html.length > RECENT_MAX_CHARS) return sanitizeParsed(html);
  const sample = sampleOf(html);
  let answer = recentlySanitized.get(sample)?.find((entry) => entry.html === html)?.answer;
  if (answer === undefined) {
    answer = sanitizeParsed(html);
    // Dropping them all at once keeps this cheap; a full map means the bodies rarely repeat anyway.
    if (recentCount >= RECENT_MAX) {
      recentlySanitized.clear();
      recentCount = 0;
    }
    const entries = recentlySanitized.get(sample);
    if (entries) entries.push({ html, answer });
    else recentlySanitized.set(sample, [{ html, answer }]);
    recentCount++;
  }
  // Copies: callers may keep or change what they are given.
  return { html: answer.html, removed: answer.removed.map((entry) => ({ ...entry })) };
}

function sanitizeParsed(html: string): SanitizedMail {
  const document = parseDocument(html);
  const removed: UnsafeUrl[] = [];
  const walk = (nodes: AnyNode[]) => {
    for (const node of [...nodes]) {
      const hazard = isHazard(node);
      if (hazard) {
        removed.push(hazard);
        DomUtils.removeElement(node);
        continue;
      }
      if (node.type !== 'tag' && node.type !== 'script' && node.type !== 'style') continue;
      const element = node as { name: string; attribs: Record<string, string>; children: AnyNode[] };
      const { unsafe } = unsafeUrlAttributes(element.name, element.attribs);
      for (const entry of unsafe) {
        delete element.attribs[entry.attribute];
        removed.push(entry);
      }
      walk(element.children);
    }
  };
  walk(document.children);
  if (removed.length === 0) return { html, removed };
  return { html: DomUtils.getOuterHTML(document, { encodeEntities: 'utf8', emptyAttrs: true }), removed };
}

/**
 * The URL attributes of a template (before merge tags are rendered): those that will be removed for
 * every contact, and those whose contact values decide (`href="{{ website }}"`). For the pre-launch check.
 */
export function scanTemplateUrls(html: string): { unsafe: UnsafeUrl[]; perContact: UnsafeUrl[] } {
  const unsafe: UnsafeUrl[] = [];
  const perContact: UnsafeUrl[] = [];
  if (!html.includes('=')) return { unsafe, perContact };
  const walk = (nodes: AnyNode[]) => {
    for (const node of nodes) {
      const hazard = isHazard(node, true);
      if (hazard) {
        unsafe.push(hazard);
        continue;
      }
      if (node.type !== 'tag' && node.type !== 'script' && node.type !== 'style') continue;
      const element = node as { name: string; attribs: Record<string, string>; children: AnyNode[] };
      const found = unsafeUrlAttributes(element.name, element.attribs, { template: true });
      unsafe.push(...found.unsafe);
      perContact.push(...found.perContact);
      walk(element.children);
    }
  };
  walk(parseDocument(html).children);
  return { unsafe, perContact };
}
