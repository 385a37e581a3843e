import type { TemplateCategory, TemplateKind } from '@shared/templates';

/** One library template as it ships in code; `slug` is its stable identity across releases. */
export interface SeedTemplate {
  slug: string;
  kind: TemplateKind;
  category: TemplateCategory;
  name: string;
  description: string;
  subject: string;
  bodyHtml: string;
  blocks: unknown[] | null;
  tags: string[];
}

export const GREETING = 'Hi {{ firstName | default: "there" }},';
export const SIGN_OFF = 'Best regards,<br>{{ senderName }}';

/** Paragraphs become plain `<p>` blocks: easy to edit in the rich-text editor, safe in every client. */
export function paragraphs(...lines: string[]): string {
  return lines.map((line) => `<p>${line}</p>`).join('\n');
}

/** An email template: greeting, the paragraphs, the sign-off. */
export function email(
  category: TemplateCategory,
  slug: string,
  name: string,
  description: string,
  subject: string,
  body: string[],
  tags: string[],
  options: { greeting?: string; signOff?: string } = {},
): SeedTemplate {
  return {
    slug,
    kind: 'email',
    category,
    name,
    description,
    subject,
    bodyHtml: paragraphs(options.greeting ?? GREETING, ...body, options.signOff ?? SIGN_OFF),
    blocks: null,
    tags,
  };
}
