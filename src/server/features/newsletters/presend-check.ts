import type { Database } from '@server/db/client';
import { AppError } from '@server/lib/errors';
import type { CheckIssue } from '@shared/errors';
import {
  BLOCK_TYPE_LABELS,
  type ColumnBlock,
  type NewsletterBlock,
  newsletterBlockSchema,
} from '@shared/newsletters';
import {
  findLinkPlaceholders,
  findTextPlaceholders,
  type PlaceholderFinding,
  textUrls,
} from '@shared/placeholders';
import { customFieldsOfLists } from '../lists/lists.service';
import { findCopyPlaceholders, mergeTagPlaceholders } from '../personalization/personalization.service';

/*
 * The pre-send check of newsletters and bulk emails: a placeholder the template left ("[Date]",
 * "[[edit: …]]", an example.com link, a merge tag nobody fills) would reach every recipient as it is, so
 * sending (now or scheduled) is refused with a 422 naming where each one is: the subject, the preheader,
 * or the block ("Block 4 (Text)"; the body of a bulk email).
 */

export const PRESEND_MESSAGES = {
  /** The 422's message starts with this, then names the first placeholder. */
  fix: 'Replace the placeholders before sending',
} as const;

/** Most placeholders named in the message; `errors` lists them all. */
const NAMED = 2;

/** A block's words as the author wrote them (merge tags included) and its links. */
function blockContent(block: NewsletterBlock | ColumnBlock): { text: string; links: string[] } {
  switch (block.type) {
    case 'heading':
      return { text: block.text, links: [] };
    case 'text':
    case 'footer': {
      const links = [...block.text.matchAll(/\[[^\]\n]{1,300}\]\(([^)\s]{1,2000})\)/g)].map((m) => m[1]!);
      return { text: block.text, links };
    }
    case 'button':
      return { text: block.label, links: [block.href] };
    case 'image':
      return { text: block.alt, links: [block.src, block.href].filter((l) => l.trim() !== '') };
    case 'social':
      return { text: '', links: block.links.map((l) => l.url) };
    case 'divider':
    case 'columns':
      return { text: '', links: [] };
  }
}

function findInBlock(
  block: NewsletterBlock | ColumnBlock,
  knownFields: readonly string[],
): PlaceholderFinding[] {
  const { text, links } = blockContent(block);
  const tags = mergeTagPlaceholders({ subject: '', html: `${text}\n${links.join('\n')}`, knownFields });
  const seen = new Set<string>();
  return [
    ...findTextPlaceholders(text),
    ...findLinkPlaceholders([...links, ...textUrls(text)]),
    ...tags.body,
  ].filter((f) => {
    const key = `${f.kind}:${f.text}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return !(f.kind === 'bracketed' && tags.body.some((t) => t.text.startsWith(f.text)));
  });
}

function blockName(block: { type: NewsletterBlock['type'] }, position: string): string {
  return `Block ${position} (${BLOCK_TYPE_LABELS[block.type]})`;
}

/** Every placeholder of a newsletter or bulk email, each named with where it is. */
export function findNewsletterPlaceholders(input: {
  kind: 'newsletter' | 'bulk';
  subject: string;
  preheader: string;
  html: string;
  blocks: unknown[] | null;
  knownFields: readonly string[];
}): CheckIssue[] {
  const issues: CheckIssue[] = [];
  const add = (where: string, findings: PlaceholderFinding[]) => {
    for (const f of findings) issues.push({ code: 'placeholders', message: `${where}: ${f.message}`, where });
  };
  const head = findCopyPlaceholders({
    subject: input.subject,
    html: '',
    knownFields: input.knownFields,
  });
  add('Subject', head.subject);
  if (input.preheader.trim()) {
    add(
      'Preheader',
      findCopyPlaceholders({ subject: input.preheader, html: '', knownFields: input.knownFields }).subject,
    );
  }
  if (input.kind === 'newsletter' && Array.isArray(input.blocks)) {
    input.blocks.forEach((raw, index) => {
      const parsed = newsletterBlockSchema.safeParse(raw);
      if (!parsed.success) return;
      const block = parsed.data;
      if (block.type === 'columns') {
        block.columns.forEach((column, c) => {
          column.forEach((inner, n) => {
            add(
              `${blockName(inner, `${index + 1}.${c + 1}.${n + 1}`)}`,
              findInBlock(inner, input.knownFields),
            );
          });
        });
      } else {
        add(blockName(block, String(index + 1)), findInBlock(block, input.knownFields));
      }
    });
    return issues;
  }
  add('Body', findCopyPlaceholders({ subject: '', html: input.html, knownFields: input.knownFields }).body);
  return issues;
}

/** Refuses the send (422) while the newsletter holds a placeholder; `listIds` give the known custom fields. */
export async function assertNoPlaceholders(options: {
  db: Database;
  userId: string;
  row: {
    kind: 'newsletter' | 'bulk';
    subject: string;
    preheader: string;
    html: string;
    blocks: unknown[] | null;
  };
  listIds: readonly string[];
}): Promise<void> {
  const knownFields = await customFieldsOfLists(options.db, options.userId, options.listIds);
  const issues = findNewsletterPlaceholders({ ...options.row, knownFields });
  if (issues.length === 0) return;
  const more = issues.length - NAMED;
  const named = issues
    .slice(0, NAMED)
    .map((i) => i.message)
    .join('; ');
  throw new AppError(
    'unprocessable',
    `${PRESEND_MESSAGES.fix}: ${named}${more > 0 ? ` (and ${more} more)` : ''}`,
    {
      errors: issues,
    },
  );
}
