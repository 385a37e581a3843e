import { describe, expect, it } from 'vitest';
import { compileTemplate, findMergeTagProblems, renderTemplate } from './merge-tags';
import { mergeScope, renderForContact, renderSeed, SAMPLE_CONTACT } from './personalize';
import { countSpinVariants, flattenSpintax, spin } from './spintax';

const sender = { fromName: 'Tunde Bello', fromEmail: 'tunde@bello.test' };

function render(subject: string, html: string, contact: Partial<typeof SAMPLE_CONTACT> = {}, seed = 's') {
  return renderForContact({ subject, html, contact: { ...SAMPLE_CONTACT, ...contact }, sender, seed });
}

describe('merge tags', () => {
  it('fills contact, custom-field and sender tags', () => {
    const out = render(
      'Hi {{ firstName }} from {{ company }}',
      '<p>{{ fullName }} in {{ city }}, {{ country }} ({{ countryCode }}) — {{ fields.industry }} / {{ industry }}</p><p>{{ senderName }} &lt;{{ senderEmail }}&gt;</p>',
      { fields: { industry: 'Agriculture' } },
    );
    expect(out.subject).toBe('Hi Amaka from Kano Foods');
    expect(out.html).toBe(
      '<p>Amaka Okonkwo in Lagos, Nigeria (NG) — Agriculture / Agriculture</p><p>Tunde Bello &lt;tunde@bello.test&gt;</p>',
    );
    expect(out.fallbacksUsed).toEqual([]);
  });

  it('uses the fallback for a missing value and reports it', () => {
    const out = render(
      'Hello {{ firstName | default: "there" }}',
      '<p>{{ company | default: "your team" }}</p>',
      {
        firstName: null,
        company: '  ',
      },
    );
    expect(out.subject).toBe('Hello there');
    expect(out.html).toBe('<p>your team</p>');
    expect(out.fallbacksUsed.sort()).toEqual(['company', 'firstName']);
  });

  it('renders unknown tags empty, never as braces', () => {
    const out = render('Hi {{ frstName }}!', '<p>{{ fields.nothing }}{{ whatever.deep }}x</p>');
    expect(out.subject).toBe('Hi !');
    expect(out.html).toBe('<p>x</p>');
  });

  it('escapes contact data in HTML but not in the subject', () => {
    const out = render(
      '{{ firstName }} & co',
      '<p title="{{ company }}">{{ firstName }}</p>{{ firstName | raw }}',
      {
        firstName: '<script>alert(1)</script>',
        company: '" onmouseover="x',
      },
    );
    expect(out.html).not.toContain('<script>');
    expect(out.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out.html).toContain('title="&quot; onmouseover=&quot;x"');
    expect(out.subject).toBe('<script>alert(1)</script> & co');
  });

  it('keeps the author’s own HTML and a line-break-free subject', () => {
    const out = render('Hi {{ firstName }}', '<p><strong>Bold</strong> {{ firstName | upcase }}</p>', {
      firstName: 'Ada\r\nBcc: x@y.z',
    });
    expect(out.subject).toBe('Hi Ada Bcc: x@y.z');
    expect(out.html).toBe('<p><strong>Bold</strong> ADA\r\nBCC: X@Y.Z</p>');
  });

  it('never sends a broken template as raw braces', () => {
    const out = render('Hi {{ firstName', '<p>{% for x in (1..3) %}{{ x }}{% endfor %} done</p>');
    expect(out.subject).not.toContain('{{');
    expect(out.html).toBe('<p> done</p>');
    expect(out.templateErrors.length).toBe(2);
  });

  it('stops a template that would grow without bound', () => {
    const doubling = `{% assign a = "xxxxxxxxxx" %}${'{% assign a = a | append: a %}'.repeat(40)}{{ a | size }}`;
    const assigned = render('s', doubling);
    expect(assigned.templateErrors).toEqual(['memory alloc limit exceeded']);
    const captured = render(
      's',
      `{% capture a %}x{% endcapture %}${'{% capture a %}{{a}}{{a}}{% endcapture %}'.repeat(40)}`,
    );
    expect(captured.templateErrors).toEqual(['{% capture %} cannot be used in emails']);
    expect(captured.html).toBe('x');
  });

  it('does not spin or interpret contact data', () => {
    const out = render('x', '<p>{{ firstName }}</p>', { firstName: '{Hi|Hello} {{ company }}' });
    expect(out.html).toBe('<p>{Hi|Hello} {{ company }}</p>');
  });
});

describe('spintax', () => {
  it('is deterministic per seed and varies across seeds', () => {
    const text = '{Hi|Hello|Hey|Good day} {there|friend}';
    expect(spin(text, 'a')).toBe(spin(text, 'a'));
    const seen = new Set(Array.from({ length: 200 }, (_, i) => spin(text, `seed-${i}`)));
    expect(seen.size).toBe(8);
  });

  it('supports nesting and merge tags inside options', () => {
    const text = '{Hi {{ firstName }}|{Hello|Hey} there}!';
    const seen = new Set(Array.from({ length: 200 }, (_, i) => render('s', text, {}, `n${i}`).html));
    expect([...seen].sort()).toEqual(['Hello there!', 'Hey there!', 'Hi Amaka!']);
  });

  it('leaves Liquid, CSS and single-option braces alone', () => {
    const text =
      '<style>p { color: red } a{b|c}</style>{{ firstName | default: "x" }} {% if company %}{note}{% endif %} {a|b';
    expect(flattenSpintax(text)).toBe(text);
    expect(spin(text, 'q')).toBe(text);
  });

  it('the preview seed is the send seed', () => {
    const seed = renderSeed({ campaignId: 'c1', stepId: 's1', email: ' Amaka@Example.com ' });
    expect(seed).toBe(renderSeed({ campaignId: 'c1', stepId: 's1', email: 'amaka@example.com' }));
    expect(countSpinVariants('{a|b} {c|{d|e}}')).toBe(6);
  });
});

describe('findMergeTagProblems', () => {
  it('reports unknown tags, with custom fields known', () => {
    const problems = findMergeTagProblems({
      subject: 'Hi {{ frstName }}',
      html: '<p>{{ industry }} {{ fields.industry }} {{ fields.region }} {{ company }} {% assign g = firstName %}{{ g }}</p>',
      knownFields: ['industry'],
    });
    expect(problems.unknownTags.sort()).toEqual(['fields.region', 'frstName']);
    expect(problems.syntaxErrors).toEqual([]);
  });

  it('reports syntax errors, removed tags, unknown filters and other tools’ tags', () => {
    const problems = findMergeTagProblems({
      subject: 'Hi {{ firstName | shout }}',
      html: '<p>{% include "x" %} {firstName} *|FNAME|* {unrelated}</p>',
      knownFields: [],
    });
    expect(problems.syntaxErrors).toEqual([
      'Subject: Unknown filter "shout"',
      'Body: {% include %} cannot be used in emails',
      'Body: {firstName} needs two braces: {{ firstName }}',
      "Body: *|FNAME|* is another tool's merge tag; use {{ firstName }}-style tags",
    ]);
  });

  it('checks every spintax option', () => {
    const problems = findMergeTagProblems({
      subject: '{Hi {{ firstName }}|Hello {{ nme }}}',
      html: '',
      knownFields: [],
    });
    expect(problems.unknownTags).toEqual(['nme']);
  });

  it('flags an unsubscribe tag (Tambari adds its own link)', () => {
    const problems = findMergeTagProblems({
      subject: 's',
      html: '<a href="{{ unsubscribe_url }}">x</a>',
      knownFields: [],
    });
    expect(problems.unknownTags).toEqual(['unsubscribe_url']);
  });
});

describe('the plain-parts fast path', () => {
  it('renders exactly as Liquid does', () => {
    const templates = [
      'Hi {{ firstName }}, {{ company | default: "your team" }} in {{city}}!',
      '<p>{{ fields.industry | default: \'your sector\' }} — {{ industry }} {{ nothing }} {{ fields.none | default: "" }}</p>',
      '{{ senderName }} <{{ senderEmail }}> {{ country }} {{ countryCode }} {{ fullName | default: "friend" }}',
    ];
    const contacts = [
      SAMPLE_CONTACT,
      {
        email: 'x@y.z',
        firstName: '<b>"Tom" & \'Jerry\'</b>',
        company: '',
        city: null,
        fields: { industry: 'Oil & Gas' },
      },
      { email: 'q@r.s', firstName: '  ', lastName: 'Solo', countryCode: 'ke', fields: { industry: '' } },
    ];
    for (const template of templates) {
      expect(compileTemplate(template).fast).not.toBeNull();
      for (const contact of contacts) {
        const scope = mergeScope(contact, { fromName: 'Ada & Co', fromEmail: 'ada@co.test' });
        for (const mode of ['html', 'text'] as const) {
          const fast = renderTemplate(template, scope, mode);
          const liquid = renderTemplate(template, scope, mode, { liquidOnly: true });
          expect(fast).toEqual(liquid);
        }
      }
    }
    expect(compileTemplate('{{ firstName | upcase }}').fast).toBeNull();
    expect(compileTemplate('{%- if a -%}x{%- endif -%}').fast).toBeNull();
    expect(compileTemplate('{{- firstName -}}').fast).toBeNull();
  });
});

describe('links in a personalised body', () => {
  it('removes a link whose merge value is a script URL, keeping its text', () => {
    const out = render('Hi', '<p>Visit <a href="{{ company }}">your site</a></p>', {
      company: 'javascript:alert(1)',
    });
    expect(out.html).toBe('<p>Visit <a>your site</a></p>');
    expect(out.removedLinks).toEqual([
      expect.objectContaining({ attribute: 'href', value: 'javascript:alert(1)' }),
    ]);
  });

  it('keeps a merge value that is a web address', () => {
    const out = render('Hi', '<p><a href="{{ company }}">site</a></p>', {
      company: 'https://kano.example.com',
    });
    expect(out.html).toBe('<p><a href="https://kano.example.com">site</a></p>');
    expect(out.removedLinks).toEqual([]);
  });
});
