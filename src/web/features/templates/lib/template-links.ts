import type { Template } from '@shared/templates';

export interface TemplateUseLink {
  label: string;
  href: string;
  testId: string;
}

/** Where a template can be used: emails in a campaign step or a bulk email, layouts in a newsletter. */
export function templateUseLinks(template: Pick<Template, 'id' | 'kind'>): TemplateUseLink[] {
  const id = encodeURIComponent(template.id);
  if (template.kind === 'newsletter') {
    return [
      {
        label: 'Use in a newsletter',
        href: `/newsletter-editor?template=${id}`,
        testId: 'use-in-newsletter',
      },
    ];
  }
  return [
    { label: 'Use in a campaign', href: `/campaigns?template=${id}`, testId: 'use-in-campaign' },
    {
      label: 'Use in a bulk email',
      href: `/newsletter-editor?kind=bulk&template=${id}`,
      testId: 'use-in-bulk',
    },
  ];
}

/** The name a copy of a library template gets in "my templates". */
export function copyName(name: string): string {
  const base = name.replace(/ \(my copy\)$/, '');
  return `${base} (my copy)`.slice(0, 120);
}
