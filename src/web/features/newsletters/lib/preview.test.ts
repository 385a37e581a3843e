import { describe, expect, it } from 'vitest';
import { mergeTagWarnings, previewContactLabel, removedLinkWarnings } from './preview';

const amaka = { email: 'amaka@example.com', firstName: 'Amaka', lastName: 'Okonkwo', company: 'Kano Foods' };

describe('personalised preview copy', () => {
  it('names the contact the preview shows, and why it is the sample one', () => {
    expect(previewContactLabel({ contact: amaka, sample: false, hasLists: true })).toBe(
      'As Amaka Okonkwo (amaka@example.com) · Kano Foods, a contact of the audience lists',
    );
    expect(previewContactLabel({ contact: amaka, sample: true, hasLists: false })).toBe(
      'As a sample contact, Amaka Okonkwo · Kano Foods (no audience lists are chosen yet)',
    );
    const bare = { email: 'kofi@client.test', firstName: null, lastName: null, company: null };
    expect(previewContactLabel({ contact: bare, sample: false, hasLists: true })).toBe(
      'As kofi@client.test, a contact of the audience lists',
    );
    expect(previewContactLabel({ contact: bare, sample: true, hasLists: true })).toBe(
      'As a sample contact, kofi@client.test (the audience lists have no contact to show)',
    );
  });

  it('warns about unknown and unreadable merge tags only', () => {
    expect(mergeTagWarnings({ unknownTags: [], syntaxErrors: [] })).toEqual([]);
    expect(mergeTagWarnings({ unknownTags: ['compny'], syntaxErrors: [] })).toEqual([
      "Unknown merge tag: compny. Check the spelling, or the audience lists' custom fields.",
    ]);
    expect(
      mergeTagWarnings({ unknownTags: ['compny', 'regoin'], syntaxErrors: ['Unclosed {{', 'Bad filter'] }),
    ).toEqual([
      "Unknown merge tags: compny, regoin. Check the spelling, or the audience lists' custom fields.",
      'Merge tags that cannot be read: Unclosed {{; Bad filter',
    ]);
  });
});

describe('removedLinkWarnings', () => {
  it('names the links the send removes from this copy, and nothing when there is none', () => {
    expect(removedLinkWarnings({ removedLinks: [] })).toEqual([]);
    expect(
      removedLinkWarnings({ removedLinks: ['javascript:alert(1) — javascript: links are not allowed'] }),
    ).toEqual([
      'A link is removed from this copy (only https://, mailto: and tel: links are sent): javascript:alert(1) — javascript: links are not allowed',
    ]);
  });
});
