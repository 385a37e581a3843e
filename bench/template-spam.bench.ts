// `npm run bench -- template-spam [--count N]`: the template library's SpamAssassin scores as really sent
// (tests/support/library-as-sent.ts: the outbox's and the dispatcher's composer), local rules only
// (`spamassassin -L -t`), open tracking on and off; the pixel placed as before (always appended: `before`)
// and as now (only where it is free of spam points: `after`), and the plain-text-first formats. --count
// limits the templates (all ~107 by default; one message takes 1–3 s, two run at a time). Needs spamassassin.
import { findSpamAssassin, scoreWithSpamAssassin } from '@server/features/personalization/spamassassin';
import type { PixelPlacement } from '@server/features/sending/message-content';
import type { BodyFormat } from '@shared/sending';
import { composeLibraryEmail, LIBRARY_EMAILS } from '@tests/support/library-as-sent';

interface Variant {
  trackOpens: boolean;
  pixel?: PixelPlacement;
  bodyFormat?: BodyFormat;
}

const VARIANTS: Record<string, Variant> = {
  before_tracking_on: { trackOpens: true, pixel: 'always' },
  before_tracking_off: { trackOpens: false, pixel: 'always' },
  after_tracking_on: { trackOpens: true },
  after_tracking_off: { trackOpens: false },
  text_html_tracking_on: { trackOpens: true, bodyFormat: 'text_html' },
  text_only: { trackOpens: true, bodyFormat: 'text' },
};

export async function run(options: { count?: number }) {
  const { spamassassin } = findSpamAssassin();
  if (!spamassassin) throw new Error('spamassassin is not on PATH');
  const programs = { spamc: null, spamassassin };
  const templates = LIBRARY_EMAILS.slice(0, options.count ?? LIBRARY_EMAILS.length);
  const figures: Record<string, unknown> = { templates: templates.length };
  const started = performance.now();
  for (const [name, variant] of Object.entries(VARIANTS)) {
    // before_tracking_off and after_tracking_off are the same messages: scored once, reported twice.
    if (name === 'after_tracking_off') {
      figures[name] = figures.before_tracking_off;
      continue;
    }
    const queue = [...templates];
    const scores: number[] = [];
    const imageOnly = new Set<string>();
    await Promise.all(
      [0, 1].map(async () => {
        for (let t = queue.shift(); t; t = queue.shift()) {
          const verdict = await scoreWithSpamAssassin(composeLibraryEmail(t, variant).raw, {
            programs,
            timeoutMs: 60_000,
          });
          scores.push(verdict!.score);
          for (const r of verdict!.rules) if (r.rule.startsWith('HTML_IMAGE_ONLY_')) imageOnly.add(t.slug);
        }
      }),
    );
    figures[name] = {
      max: Math.max(...scores),
      mean: Math.round((scores.reduce((a, b) => a + b, 0) / scores.length) * 100) / 100,
      htmlImageOnly: imageOnly.size,
    };
    process.stderr.write(`${name}: ${JSON.stringify(figures[name])}\n`);
  }
  figures.seconds = Math.round((performance.now() - started) / 100) / 10;
  return figures;
}
