import { describe, expect, it } from 'vitest';
import { GUIDES, guideArticles, searchArticles } from './guides';

describe('guides', () => {
  it('cover quick setup, deliverability and DNS, importing, sequences, newsletters and billing', () => {
    expect(GUIDES.map((guide) => guide.slug)).toEqual([
      'quick-setup',
      'deliverability',
      'importing',
      'sequences',
      'newsletters',
      'billing',
    ]);
    for (const guide of GUIDES) {
      expect(guide.sections.length, guide.slug).toBeGreaterThanOrEqual(3);
      expect(new Set(guide.sections.map((s) => s.id)).size, guide.slug).toBe(guide.sections.length);
    }
  });
});

describe('searchArticles', () => {
  const articles = guideArticles();

  it('finds articles matching every word, titles first, ignoring case and accents', () => {
    const dkim = searchArticles(articles, 'DKIM');
    expect(dkim[0]?.title).toBe('DKIM: a signature on every message');
    expect(dkim[0]?.to).toBe('/docs/deliverability#dkim');
    expect(searchArticles(articles, 'csv duplicates').map((a) => a.id)).toContain('importing-skipped');
    expect(searchArticles(articles, 'RÉFUNDS')[0]?.id).toBe('billing-refunds');
  });

  it('shows everything for an empty query and nothing for a word no article has', () => {
    expect(searchArticles(articles, '  ')).toHaveLength(articles.length);
    expect(searchArticles(articles, 'blockchain')).toEqual([]);
  });
});
