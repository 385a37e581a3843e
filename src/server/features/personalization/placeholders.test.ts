import {
  editMarker,
  findLinkPlaceholders,
  findTextPlaceholders,
  isPlaceholderLink,
} from '@shared/placeholders';
import { describe, expect, it } from 'vitest';
import { countryAdjectiveOf, DEMONYM_CODES } from './demonyms';
import { renderForContact, SAMPLE_CONTACT } from './personalize';
import { findCopyPlaceholders } from './placeholders';

const kinds = (text: string) => findTextPlaceholders(text).map((f) => [f.kind, f.text]);

describe('text placeholders', () => {
  it('finds bracketed placeholders', () => {
    expect(kinds('When: [date and time, WAT] at [Venue]. [Your company address]')).toEqual([
      ['bracketed', '[date and time, WAT]'],
      ['bracketed', '[Venue]'],
      ['bracketed', '[Your company address]'],
    ]);
  });

  it('leaves footnotes, Markdown link labels and plain text alone', () => {
    expect(kinds('See note [1] and [our guide](https://tambari.ng/guide). No brackets here.')).toEqual([]);
  });

  it('finds edit-me markers and names what to edit', () => {
    const found = findTextPlaceholders(`Our customers see ${editMarker('42% average open rate')}.`);
    expect(found).toEqual([
      {
        kind: 'edit_marker',
        text: '[[edit: 42% average open rate]]',
        message:
          '[[edit: 42% average open rate]] is marked to edit: replace it with your own “42% average open rate”',
      },
    ]);
  });
});

describe('placeholder links', () => {
  it.each([
    'https://example.com',
    'https://www.example.com/register',
    'http://example.org/x',
    'https://shop.example.net',
    'https://www.linkedin.com/company/example',
    'https://www.instagram.com/example',
    'mailto:stories@example.com',
    'https://yourwebsite.com/offer',
    'https://your-company.ng',
    '[[edit: link to your registration page]]',
    'https://site.invalid/page',
    'www.example.com/offer',
  ])('%s is a placeholder', (url) => {
    expect(isPlaceholderLink(url)).toBe(true);
  });

  it.each([
    'https://tambari.ng',
    'https://www.linkedin.com/company/kano-foods',
    'https://examples.com',
    'https://www.example-foods.ng',
    'mailto:hello@kanofoods.ng',
    '{{ website }}',
    'tel:+2348012345678',
    // Never sent at all: the send removes links without a scheme.
    '//evil.example/login',
  ])('%s is not a placeholder link', (url) => {
    expect(isPlaceholderLink(url)).toBe(false);
  });

  it('names each placeholder link once', () => {
    const found = findLinkPlaceholders([
      'https://example.com/a',
      'https://example.com/a',
      'https://tambari.ng',
    ]);
    expect(found.map((f) => f.message)).toEqual([
      'The link https://example.com/a is a placeholder: link to your own page or remove it',
    ]);
  });
});

describe('findCopyPlaceholders', () => {
  it('checks the subject and the body: text, links, addresses and merge tags', () => {
    const found = findCopyPlaceholders({
      subject: 'Join us on [Date]',
      html: '<p>Hello {{ frstName }},</p><p><a href="https://www.example.com/register">Register</a> or write to stories@example.com.</p><p>{{ fields.industry }} {{ firstName }}</p>',
      knownFields: ['industry'],
    });
    expect(found.subject.map((f) => f.text)).toEqual(['[Date]']);
    expect(found.body.map((f) => [f.kind, f.text])).toEqual([
      ['example_link', 'https://www.example.com/register'],
      ['example_link', 'mailto:stories@example.com'],
      ['merge_tag', '{{ frstName }}'],
    ]);
    expect(found.body[2]!.message).toBe(
      '{{ frstName }} is not a merge tag (did you mean {{ firstName }}?): it would be sent empty',
    );
  });

  it('reads every spintax option', () => {
    const found = findCopyPlaceholders({ subject: '', html: '<p>{Hi|Hello [Venue]}</p>', knownFields: [] });
    expect(found.body.map((f) => f.text)).toEqual(['[Venue]']);
  });

  it('names a bracketed merge tag once, as a merge tag', () => {
    const found = findCopyPlaceholders({ subject: '', html: '<p>Hi [Name]</p>', knownFields: [] });
    expect(found.body.map((f) => f.message)).toEqual(['[Name] is not a merge tag; write {{ fullName }}']);
  });

  it('finds nothing in a finished email', () => {
    const found = findCopyPlaceholders({
      subject: 'A {{ countryAdjective }} partner for {{ company | default: "you" }}',
      html: '<p>Hi {{ firstName | default: "there" }},</p><p>See <a href="https://tambari.ng">our site</a>.</p>',
      knownFields: [],
    });
    expect(found).toEqual({ subject: [], body: [] });
  });
});

describe('{{ countryAdjective }}', () => {
  // Every African country and territory with an ISO code.
  const AFRICA =
    'DZ AO BJ BW BF BI CV CM CF TD KM CG CD CI DJ EG GQ ER SZ ET GA GM GH GN GW KE LS LR LY MG MW ML MR MU YT MA MZ NA NE NG RE RW SH ST SN SC SL SO ZA SS SD TZ TG TN UG EH ZM ZW'.split(
      ' ',
    );

  it('has an adjective for every African country', () => {
    expect(AFRICA.filter((code) => !DEMONYM_CODES.includes(code))).toEqual([]);
  });

  it('turns the country into its adjective and falls back to the name', () => {
    expect(countryAdjectiveOf('ng', 'Nigeria')).toBe('Nigerian');
    expect(countryAdjectiveOf('GH', 'Ghana')).toBe('Ghanaian');
    expect(countryAdjectiveOf('KE', 'Kenya')).toBe('Kenyan');
    expect(countryAdjectiveOf('FJ', 'Fiji')).toBe('Fiji');
    expect(countryAdjectiveOf(null, '')).toBe('');
  });

  it('renders in an email, with its fallback when the contact has no country', () => {
    const html = '<p>A {{ countryAdjective | default: "local" }} distributor</p>';
    const sender = { fromName: 'Tunde', fromEmail: 'tunde@bello.test' };
    const ng = renderForContact({ subject: '', html, contact: SAMPLE_CONTACT, sender, seed: 's' });
    expect(ng.html).toBe('<p>A Nigerian distributor</p>');
    const none = renderForContact({
      subject: '',
      html,
      contact: { ...SAMPLE_CONTACT, countryCode: null },
      sender,
      seed: 's',
    });
    expect(none.html).toBe('<p>A local distributor</p>');
  });
});
