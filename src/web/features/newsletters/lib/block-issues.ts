import {
  BLOCK_TYPE_LABELS,
  isUnfilledLink,
  type NewsletterBlock,
  newsletterBlocksSchema,
} from '@shared/newsletters';

/*
 * Where a newsletter's problems are: each one names its block (by position and kind) and the field in
 * it, so the editor can mark that block and the banner can say "Block 4 (Button): Link — Enter a link"
 * instead of a message that names nothing. The same mapping reads the editor's own check and the
 * server's `errors` (paths like `blocks.3.href`).
 */

export interface BlockIssue {
  blockIndex: number;
  blockId: string;
  /** The field as the user sees it: "Link", "Link 2", "Left column, item 1: Link"… */
  field: string;
  message: string;
}

const FIELD_LABELS: Record<string, string> = {
  href: 'Link',
  label: 'Button text',
  src: 'Image address',
  alt: 'Alt text',
  width: 'Width',
  text: 'Text',
  color: 'Colour',
  background: 'Background',
  level: 'Size',
  align: 'Alignment',
  network: 'Network',
};

function fieldLabel(parts: (string | number)[]): string {
  if (parts.length === 0) return 'Block';
  const [head, ...rest] = parts;
  if (head === 'links') {
    const index = typeof rest[0] === 'number' ? rest[0] : Number(rest[0]);
    const which = Number.isFinite(index) ? ` ${index + 1}` : 's';
    return rest[1] === 'network' ? `Link${which} network` : `Link${which}`;
  }
  if (head === 'columns') {
    const side = Number(rest[0]) === 0 ? 'Left column' : 'Right column';
    const item = Number(rest[1]);
    if (!Number.isFinite(item)) return side;
    return `${side}, item ${item + 1}: ${fieldLabel(rest.slice(2))}`;
  }
  return FIELD_LABELS[String(head)] ?? String(head);
}

/** Problems at `blocks.<i>.…` paths (dotted strings or zod path arrays) as block issues. */
export function blockIssuesFromErrors(
  blocks: readonly NewsletterBlock[],
  errors: readonly { path: string | (string | number | symbol)[]; message: string }[],
): BlockIssue[] {
  const issues: BlockIssue[] = [];
  for (const error of errors) {
    const raw = typeof error.path === 'string' ? error.path.split('.') : error.path.map(String);
    const parts = raw.map((p) => (/^\d+$/.test(p) ? Number(p) : p));
    const start = parts[0] === 'blocks' ? 1 : 0;
    const index = parts[start];
    if (typeof index !== 'number') continue;
    const block = blocks[index];
    if (!block) continue;
    issues.push({
      blockIndex: index,
      blockId: block.id,
      field: fieldLabel(parts.slice(start + 1)),
      message: error.message,
    });
  }
  return issues;
}

/** The editor's own check before saving: the server's block rules, with unfilled social links left out. */
export function checkBlocks(blocks: readonly NewsletterBlock[]): BlockIssue[] {
  const parsed = newsletterBlocksSchema.safeParse(blocks);
  if (parsed.success) return [];
  return blockIssuesFromErrors(
    blocks,
    parsed.error.issues.map((issue) => ({ path: issue.path as (string | number)[], message: issue.message })),
  );
}

/** The social links a user has not filled in yet are not sent: they are unfinished, not wrong. */
export function withoutUnfilledLinks(blocks: readonly NewsletterBlock[]): NewsletterBlock[] {
  return blocks.map((block) =>
    block.type === 'social' ? { ...block, links: block.links.filter((l) => !isUnfilledLink(l.url)) } : block,
  );
}

export function describeIssue(issue: BlockIssue, blocks: readonly NewsletterBlock[]): string {
  const block = blocks[issue.blockIndex];
  const kind = block ? BLOCK_TYPE_LABELS[block.type] : 'Block';
  return `Block ${issue.blockIndex + 1} (${kind}): ${issue.field} — ${issue.message}`;
}

/**
 * Where a new block goes: at `at` when the user chose a place, otherwise above the footer (the footer
 * closes the email), or at the end when there is none.
 */
export function insertBlock(
  blocks: readonly NewsletterBlock[],
  block: NewsletterBlock,
  at?: number,
): NewsletterBlock[] {
  const next = [...blocks];
  let index = at ?? next.length;
  if (at === undefined) {
    const footer = next.findIndex((b) => b.type === 'footer');
    if (footer >= 0 && block.type !== 'footer') index = footer;
  }
  next.splice(Math.max(0, Math.min(index, next.length)), 0, block);
  return next;
}
