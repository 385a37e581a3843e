import { describe, expect, it } from 'vitest';
import { extractMergeTags, fillSampleMergeTags } from './templates';

describe('extractMergeTags', () => {
  it('finds each tag once, in order, with or without filters and whitespace', () => {
    expect(
      extractMergeTags(
        'Hi {{firstName | default: "there"}}',
        '<p>{{ company }} in {{- city -}} and {{ fields.industry | upcase }}; again {{ company }}</p>',
      ),
    ).toEqual(['firstName', 'company', 'city', 'fields.industry']);
  });

  it('ignores Liquid tags, broken braces and plain text', () => {
    expect(extractMergeTags('{% if x %}yes{% endif %} {{ }} { company } {{ 9lives }}')).toEqual([]);
  });
});

describe('fillSampleMergeTags', () => {
  it('uses sample values, then the default fallback, then a visible [name]', () => {
    expect(
      fillSampleMergeTags(
        'Hi {{ firstName | default: "there" }} at {{ fields.company }}, {{ industry | default: \'your sector\' }} {{ mystery }}',
      ),
    ).toBe('Hi Amaka at Okafor Foods, your sector [mystery]');
  });

  it('takes the first option of spintax and leaves other braces alone', () => {
    expect(fillSampleMergeTags('{Hi|Hello|Hey} there', { firstName: 'x' })).toBe('Hi there');
    expect(fillSampleMergeTags('<style>p{color:red}</style>')).toBe('<style>p{color:red}</style>');
  });

  it('falls back when a sample value is missing', () => {
    expect(fillSampleMergeTags('{{ firstName | default: "there" }}', {})).toBe('there');
  });
});
