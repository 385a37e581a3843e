import { describe, expect, it } from 'vitest';
import { readableSubject } from './subject-text';

describe('readableSubject', () => {
  it('shows merge tags as their fallback or their field name, not as template code', () => {
    expect(readableSubject('Hello {{ firstName | default: "friend" }}, news')).toBe('Hello friend, news');
    expect(readableSubject("Hi {{first_name|default:'there'}}")).toBe('Hi there');
    expect(readableSubject('Offer for {{ company }}')).toBe('Offer for [company]');
    expect(readableSubject('{% if x %}Deal{% endif %} today')).toBe('Deal today');
    expect(readableSubject('Plain subject')).toBe('Plain subject');
  });
});
