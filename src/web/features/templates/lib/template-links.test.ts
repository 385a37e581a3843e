import { describe, expect, it } from 'vitest';
import { copyName, templateUseLinks } from './template-links';

describe('templateUseLinks', () => {
  it('offers campaigns and bulk emails for an email template', () => {
    expect(templateUseLinks({ id: 'a b', kind: 'email' }).map((l) => l.href)).toEqual([
      '/campaigns?template=a%20b',
      '/newsletter-editor?kind=bulk&template=a%20b',
    ]);
  });

  it('offers the newsletter editor for a layout', () => {
    expect(templateUseLinks({ id: 'x', kind: 'newsletter' })).toEqual([
      { label: 'Use in a newsletter', href: '/newsletter-editor?template=x', testId: 'use-in-newsletter' },
    ]);
  });
});

describe('copyName', () => {
  it('marks a copy once and stays within 120 characters', () => {
    expect(copyName('Gentle bump')).toBe('Gentle bump (my copy)');
    expect(copyName('Gentle bump (my copy)')).toBe('Gentle bump (my copy)');
    expect(copyName('x'.repeat(130))).toHaveLength(120);
  });
});
