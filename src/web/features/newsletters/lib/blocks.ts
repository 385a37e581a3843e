import {
  type ColumnBlock,
  type NewsletterBlock,
  type NewsletterBlockType,
  newsletterBlocksSchema,
} from '@shared/newsletters';

/*
 * The block editor's document operations, pure so they are tested without a browser; plus the
 * conversion of an HTML draft (AI writer, email templates) into blocks, which needs the DOM.
 */

export function blockId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `b${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
}

export function newBlock(type: NewsletterBlockType): NewsletterBlock {
  const id = blockId();
  switch (type) {
    case 'heading':
      return { id, type, text: 'A heading', level: 2, align: 'left', color: '#111827' };
    case 'text':
      return { id, type, text: 'Write something your readers will enjoy.', align: 'left', color: '#374151' };
    case 'image':
      return { id, type, src: '', alt: '', width: 600, href: '', align: 'center' };
    case 'button':
      return {
        id,
        type,
        label: 'Learn more',
        href: 'https://',
        background: '#1d4ed8',
        color: '#ffffff',
        align: 'center',
      };
    case 'divider':
      return { id, type, color: '#e5e7eb' };
    case 'columns':
      return {
        id,
        type,
        columns: [
          [{ id: blockId(), type: 'text', text: 'Left column', align: 'left', color: '#374151' }],
          [{ id: blockId(), type: 'text', text: 'Right column', align: 'left', color: '#374151' }],
        ],
      };
    case 'social':
      return { id, type, links: [{ network: 'website', url: 'https://' }], align: 'center' };
    case 'footer':
      return {
        id,
        type,
        text: 'Your company, street, city. You receive this because you are a customer.',
        align: 'center',
      };
  }
}

export function newColumnBlock(type: ColumnBlock['type']): ColumnBlock {
  return newBlock(type) as ColumnBlock;
}

/** Moves the item at `index` by `delta` places; out-of-range moves change nothing. */
export function moveItem<T>(items: readonly T[], index: number, delta: number): T[] {
  const target = index + delta;
  if (index < 0 || index >= items.length || target < 0 || target >= items.length) return [...items];
  const next = [...items];
  const [item] = next.splice(index, 1);
  next.splice(target, 0, item!);
  return next;
}

export function replaceAt<T>(items: readonly T[], index: number, item: T): T[] {
  return items.map((current, i) => (i === index ? item : current));
}

/** Blocks a template or draft carried, when they are valid for this editor. */
export function validBlocks(value: unknown): NewsletterBlock[] | null {
  const parsed = newsletterBlocksSchema.safeParse(value);
  return parsed.success && parsed.data.length > 0 ? parsed.data : null;
}

function inlineMarkdown(node: Node): string {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? '';
  if (!(node instanceof Element)) return '';
  const inner = [...node.childNodes].map(inlineMarkdown).join('');
  const tag = node.tagName.toLowerCase();
  if (tag === 'br') return '\n';
  if (tag === 'strong' || tag === 'b') return inner.trim() ? `**${inner}**` : inner;
  if (tag === 'em' || tag === 'i') return inner.trim() ? `*${inner}*` : inner;
  if (tag === 'a') {
    const href = node.getAttribute('href') ?? '';
    return /^(https?:|mailto:|tel:)/i.test(href) ? `[${inner}](${href})` : inner;
  }
  return inner;
}

/** An HTML draft as blocks: headings stay headings, paragraphs and list items become text. */
export function htmlToBlocks(html: string): NewsletterBlock[] {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const blocks: NewsletterBlock[] = [];
  let paragraphs: string[] = [];
  const flush = () => {
    if (paragraphs.length === 0) return;
    blocks.push({
      id: blockId(),
      type: 'text',
      text: paragraphs.join('\n\n'),
      align: 'left',
      color: '#374151',
    });
    paragraphs = [];
  };
  const walk = (parent: Element) => {
    for (const child of [...parent.children]) {
      const tag = child.tagName.toLowerCase();
      if (/^h[1-6]$/.test(tag)) {
        flush();
        const level = tag === 'h1' ? 1 : tag === 'h2' ? 2 : 3;
        blocks.push({
          id: blockId(),
          type: 'heading',
          text: child.textContent?.trim() ?? '',
          level,
          align: 'left',
          color: '#111827',
        });
      } else if (tag === 'ul' || tag === 'ol') {
        const items = [...child.querySelectorAll('li')].map(
          (li, i) => `${tag === 'ol' ? `${i + 1}.` : '•'} ${inlineMarkdown(li).trim()}`,
        );
        if (items.length) paragraphs.push(items.join('\n'));
      } else if (tag === 'p' || tag === 'blockquote') {
        const text = inlineMarkdown(child).trim();
        if (text) paragraphs.push(text);
      } else if (tag === 'hr') {
        flush();
        blocks.push({ id: blockId(), type: 'divider', color: '#e5e7eb' });
      } else if (child.children.length > 0) {
        walk(child);
      } else {
        const text = inlineMarkdown(child).trim();
        if (text) paragraphs.push(text);
      }
    }
  };
  walk(doc.body);
  if (blocks.length === 0 && paragraphs.length === 0) {
    const text = doc.body.textContent?.trim();
    if (text) paragraphs.push(text);
  }
  flush();
  return blocks;
}
