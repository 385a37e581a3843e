import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { AppError } from '@server/lib/errors';
import {
  RUNBOOK_SLUGS,
  type Runbook,
  type RunbookSlug,
  type RunbookSummary,
  type TocEntry,
} from '@shared/documentation';
import { Marked, type Tokens } from 'marked';
import sanitizeHtml from 'sanitize-html';

/**
 * The runbooks are read from the repository's docs/runbooks at run time, located from this file (not the
 * working directory), so `npm start` from any folder of a clean clone finds them; they are rendered once
 * per process and kept.
 */
const RUNBOOKS_DIR = fileURLToPath(new URL('../../../../docs/runbooks/', import.meta.url));

/** A heading's anchor: lower case, words joined by dashes; repeats get -2, -3… */
export function slugify(text: string, taken: Map<string, number>): string {
  const base =
    text
      .toLowerCase()
      .replace(/<[^>]*>/g, '')
      .replace(/[^a-z0-9\s-]/g, '')
      .trim()
      .replace(/\s+/g, '-') || 'section';
  const seen = taken.get(base) ?? 0;
  taken.set(base, seen + 1);
  return seen === 0 ? base : `${base}-${seen + 1}`;
}

function plainText(markdownInline: string): string {
  return markdownInline
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\*\*([^*]*)\*\*/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Markdown to safe HTML with a table of contents. The files are ours, but what renders in an admin's
 * browser still passes sanitize-html: no scripts, no event handlers, links only http(s), mailto and
 * in-page anchors.
 */
export function renderMarkdown(markdown: string): {
  title: string;
  summary: string;
  html: string;
  toc: TocEntry[];
} {
  const marked = new Marked({ gfm: true });
  const tokens = marked.lexer(markdown);
  const taken = new Map<string, number>();
  const toc: TocEntry[] = [];
  let title = '';
  let summary = '';
  const ids = new Map<Tokens.Heading, string>();
  for (const token of tokens) {
    if (token.type === 'heading') {
      const heading = token as Tokens.Heading;
      const text = plainText(heading.text);
      const id = slugify(text, taken);
      ids.set(heading, id);
      if (heading.depth === 1 && !title) title = text;
      else if (heading.depth <= 3) toc.push({ id, text, depth: heading.depth });
    } else if (token.type === 'paragraph' && !summary) {
      summary = plainText((token as Tokens.Paragraph).text);
    }
  }
  marked.use({
    renderer: {
      heading(token) {
        const id = ids.get(token) ?? slugify(plainText(token.text), taken);
        return `<h${token.depth} id="${id}">${this.parser.parseInline(token.tokens)}</h${token.depth}>\n`;
      },
    },
  });
  const raw = marked.parser(tokens);
  const html = sanitizeHtml(raw, {
    allowedTags: [...sanitizeHtml.defaults.allowedTags, 'h1', 'h2'],
    allowedAttributes: { a: ['href', 'title'], '*': ['id'], code: ['class'], th: ['align'], td: ['align'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowProtocolRelative: false,
  });
  return { title, summary, html, toc };
}

const cache = new Map<RunbookSlug, Runbook>();

export async function getRunbook(options: { slug: RunbookSlug }): Promise<Runbook> {
  const cached = cache.get(options.slug);
  if (cached) return cached;
  let markdown: string;
  try {
    markdown = await readFile(`${RUNBOOKS_DIR}${options.slug}.md`, 'utf8');
  } catch {
    throw new AppError('not_found', `The runbook "${options.slug}" is missing from docs/runbooks.`);
  }
  const rendered = renderMarkdown(markdown);
  const runbook: Runbook = { slug: options.slug, ...rendered };
  cache.set(options.slug, runbook);
  return runbook;
}

export async function listRunbooks(): Promise<RunbookSummary[]> {
  const runbooks = await Promise.all(RUNBOOK_SLUGS.map((slug) => getRunbook({ slug })));
  return runbooks.map(({ slug, title, summary }) => ({ slug, title, summary }));
}
