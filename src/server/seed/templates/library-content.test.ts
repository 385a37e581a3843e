import { findCopyPlaceholders } from '@server/features/personalization/personalization.service';
import { describe, expect, it } from 'vitest';
import { LIBRARY_TEMPLATES, RETIRED_TEMPLATE_SLUGS } from './index';

/*
 * What the library may ship: placeholders only as edit-me markers (which the checks refuse to send until
 * the user replaces them), merge tags that exist, and nothing that presents the sender as someone else.
 */

const texts = (t: (typeof LIBRARY_TEMPLATES)[number]) =>
  `${t.subject}\n${t.bodyHtml}\n${JSON.stringify(t.blocks ?? [])}`;

/** The template as a user would leave it after filling in every edit-me marker and nothing else. */
function filled(html: string): string {
  return html
    .replace(/href="\[\[\s*edit\s*:[^\]]*\]\]"/gi, 'href="https://kanofoods.test/page"')
    .replace(/\[\[\s*edit\s*:[^\]]*\]\]/gi, 'our own words');
}

describe('the template library', () => {
  it('keeps at least 100 templates, without the retired ones', () => {
    expect(LIBRARY_TEMPLATES.length).toBeGreaterThanOrEqual(100);
    const slugs = LIBRARY_TEMPLATES.map((t) => t.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    expect(slugs.filter((slug) => RETIRED_TEMPLATE_SLUGS.includes(slug))).toEqual([]);
    expect(slugs).not.toContain('follow-up-invoice-reminder');
  });

  it('holds no placeholder but edit-me markers, and only merge tags that exist', () => {
    const wrong: string[] = [];
    for (const t of LIBRARY_TEMPLATES) {
      const found = findCopyPlaceholders({ subject: t.subject, html: t.bodyHtml, knownFields: [] });
      for (const f of [...found.subject, ...found.body]) {
        const marker = f.kind === 'edit_marker' || (f.kind === 'example_link' && f.text.startsWith('[['));
        if (!marker) wrong.push(`${t.slug}: ${f.message}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('passes the placeholder check once its edit-me markers are filled in', () => {
    const wrong: string[] = [];
    for (const t of LIBRARY_TEMPLATES) {
      const found = findCopyPlaceholders({
        subject: filled(t.subject),
        html: filled(t.bodyHtml),
        knownFields: [],
      });
      for (const f of [...found.subject, ...found.body]) wrong.push(`${t.slug}: ${f.message}`);
    }
    expect(wrong).toEqual([]);
  });

  it('uses {{ countryAdjective }} where the country describes something ("a Nigerian distributor")', () => {
    const adjectiveUse =
      /\b(an?|our|the)\s+\{\{\s*country\s*(\|[^}]*)?\}\}|\{\{\s*country\s*(\|[^}]*)?\}\}[\s-]+(based|distributor|business|businesses|company|companies|supplier|suppliers|market|brand|brands|firm|firms|team|teams|buyer|buyers)\b/i;
    expect(LIBRARY_TEMPLATES.filter((t) => adjectiveUse.test(texts(t))).map((t) => t.slug)).toEqual([]);
    expect(LIBRARY_TEMPLATES.some((t) => t.bodyHtml.includes('{{ countryAdjective'))).toBe(true);
  });

  it('names the sender’s company with {{ senderCompany }}, always with a fallback (an account may name none)', () => {
    const users = LIBRARY_TEMPLATES.filter((t) => texts(t).includes('senderCompany'));
    expect(users.map((t) => t.slug)).toEqual(
      expect.arrayContaining(['event-webinar-invite', 'event-trade-fair-stand', 'intro-problem-first']),
    );
    const bare = /\{\{-?\s*senderCompany(?!\s*\|\s*default\s*:\s*["'][^"']+["'])/;
    expect(users.filter((t) => bare.test(texts(t))).map((t) => t.slug)).toEqual([]);
  });

  it('hard-codes no time zone and leaves no greeting without a name ("Bonjour ,")', () => {
    expect(
      LIBRARY_TEMPLATES.filter((t) => /\bWAT\b|West Africa Time/i.test(texts(t))).map((t) => t.slug),
    ).toEqual([]);
    expect(LIBRARY_TEMPLATES.filter((t) => /default:\s*(""|'')/.test(texts(t))).map((t) => t.slug)).toEqual(
      [],
    );
  });

  it('does not sell Tambari itself: no verified-contact or email-campaign pitches in the sender’s voice', () => {
    const pitch =
      /verified (b2b |business )?(contacts|leads|buyers)|email campaigns? that|70\+ countries|first email campaign/i;
    expect(LIBRARY_TEMPLATES.filter((t) => pitch.test(texts(t))).map((t) => t.slug)).toEqual([]);
  });
});
