import { readFileSync } from 'node:fs';
import { composeLibraryEmail, LIBRARY_EMAILS } from '@tests/support/library-as-sent';
import { describe, expect, it } from 'vitest';
import { builtinVerdict } from './spam-engine';

/*
 * Recorded by scripts/record-spam-scores.ts: every library email template composed as a cold campaign
 * sends it and scored by SpamAssassin's local rules, open tracking on and off. Where SpamAssassin is not
 * installed the pre-launch check scores with our rules: they must agree within 0.5 points on every one.
 */
interface Recorded {
  spamassassin: string;
  summary: Record<'on' | 'off', { max: number; mean: number }>;
  templates: Record<
    string,
    Record<
      'on' | 'off',
      { score: number; rules: { rule: string; score: number }[]; htmlChars: number; pixel: boolean }
    >
  >;
}

const recorded = JSON.parse(
  readFileSync(new URL('../../../../tests/fixtures/spam-scores.json', import.meta.url), 'utf8'),
) as Recorded;

describe('built-in spam rules against SpamAssassin on the library, as sent', () => {
  it('scores every template within 0.5 points of SpamAssassin, open tracking on and off', () => {
    const slugs = Object.keys(recorded.templates);
    expect(slugs.length).toBeGreaterThanOrEqual(100);
    const apart: string[] = [];
    const changed: string[] = [];
    for (const template of LIBRARY_EMAILS) {
      const verdicts = recorded.templates[template.slug];
      if (!verdicts) {
        changed.push(`${template.slug}: not recorded`);
        continue;
      }
      for (const key of ['on', 'off'] as const) {
        const message = composeLibraryEmail(template, { trackOpens: key === 'on' });
        const sa = verdicts[key];
        if ([...message.html].length !== sa.htmlChars) {
          changed.push(
            `${template.slug} (${key}): ${[...message.html].length} characters, recorded ${sa.htmlChars}`,
          );
          continue;
        }
        const ours = builtinVerdict(message);
        if (Math.abs(ours.score - sa.score) > 0.5) {
          apart.push(
            `${template.slug} (${key}): SpamAssassin ${sa.score} [${sa.rules.map((r) => r.rule).join(' ')}], ours ${ours.score} [${ours.rules.map((r) => r.rule).join(' ')}]`,
          );
        }
      }
    }
    expect(apart).toEqual([]);
    // A template edited since the recording is another message: run the script again to compare it.
    expect(changed).toEqual([]);
  });

  it('the open pixel no longer makes a library email "image only" (SpamAssassin, tracking on)', () => {
    const imageOnly = Object.entries(recorded.templates)
      .filter(([, v]) => v.on.rules.some((r) => r.rule.startsWith('HTML_IMAGE_ONLY_')))
      .map(([slug]) => slug);
    expect(imageOnly).toEqual([]);
    expect(recorded.summary.on.max).toBeLessThanOrEqual(recorded.summary.off.max);
  });

  it('the comparison fails when our rules drift: the old pixel placement is 1.4–2 points apart', () => {
    // The same messages with the pixel forced in (the placement before): SpamAssassin recorded them without
    // HTML_IMAGE_ONLY, our rules now see it — the parity check above would report every short one.
    const template = LIBRARY_EMAILS.find((t) => recorded.templates[t.slug]?.on.pixel === false)!;
    const forced = builtinVerdict(composeLibraryEmail(template, { trackOpens: true, pixel: 'always' }));
    expect(Math.abs(forced.score - recorded.templates[template.slug]!.on.score)).toBeGreaterThan(0.5);
  });
});
