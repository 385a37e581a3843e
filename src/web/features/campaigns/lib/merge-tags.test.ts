import { describe, expect, it } from 'vitest';
import { buildMergeTags, insertAt } from './merge-tags';

describe('merge tags', () => {
  it('offers contact and sender fields, then each custom field once', () => {
    const tags = buildMergeTags(['industry', 'deal_size', 'industry', 'Bad Name', '{{x}}']);
    expect(tags[0]).toEqual({
      label: 'First name',
      tag: '{{ firstName | default: "there" }}',
      group: 'Contact',
    });
    const custom = tags.filter((t) => t.group === 'Custom fields');
    expect(custom.map((t) => t.tag)).toEqual(['{{ fields.deal_size }}', '{{ fields.industry }}']);
    expect(tags.some((t) => t.tag === '{{ senderName }}' && t.group === 'Sender')).toBe(true);
    // The sending account may name no company, so the picker inserts the tag with a fallback.
    expect(tags.find((t) => t.label === 'Your company')).toEqual({
      label: 'Your company',
      tag: '{{ senderCompany | default: "our team" }}',
      group: 'Sender',
    });
    expect(tags.find((t) => t.label === 'Company')?.tag).toBe('{{ company | default: "your company" }}');
    // "a Nigerian distributor": the country as an adjective, with a fallback that still reads well.
    expect(tags.find((t) => t.label === 'Country (adjective)')?.tag).toBe(
      '{{ countryAdjective | default: "local" }}',
    );
  });

  it('inserts at the caret or over the selection', () => {
    expect(insertAt('Hi !', '{{ firstName }}', 3, 3)).toEqual({ value: 'Hi {{ firstName }}!', caret: 18 });
    expect(insertAt('Hi NAME!', 'X', 3, 7)).toEqual({ value: 'Hi X!', caret: 4 });
    expect(insertAt('abc', 'Z', 10, 12)).toEqual({ value: 'abcZ', caret: 4 });
  });
});
