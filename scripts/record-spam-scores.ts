// `npx tsx scripts/record-spam-scores.ts`: composes every library email template as a cold campaign sends
// it (tests/support/library-as-sent.ts: the outbox's and the dispatcher's own composer), with open
// tracking on and off, scores each raw message with SpamAssassin's local rules (`spamassassin -L -t`: no
// network tests, no Bayes) and records score and rules in tests/fixtures/spam-scores.json.
// spam-parity.test.ts holds the built-in rules within 0.5 points of these. Needs `spamassassin` on PATH.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { findSpamAssassin, scoreWithSpamAssassin } from '../src/server/features/personalization/spamassassin';
import { COMPOSED_WITH, composeLibraryEmail, LIBRARY_EMAILS } from '../tests/support/library-as-sent';

interface Recorded {
  score: number;
  rules: { rule: string; score: number }[];
  /** The HTML part's length in characters: a template changed since the recording shows here. */
  htmlChars: number;
  pixel: boolean;
}

const { spamassassin } = findSpamAssassin();
if (!spamassassin) {
  process.stderr.write('spamassassin is not on PATH (Debian: apt-get install spamassassin)\n');
  process.exit(1);
}
const programs = { spamc: null, spamassassin };

async function record(template: (typeof LIBRARY_EMAILS)[number], trackOpens: boolean): Promise<Recorded> {
  const message = composeLibraryEmail(template, { trackOpens });
  const verdict = await scoreWithSpamAssassin(message.raw, { programs, timeoutMs: 60_000 });
  return {
    score: verdict!.score,
    rules: verdict!.rules.map((r) => ({ rule: r.rule, score: r.score })),
    htmlChars: [...message.html].length,
    pixel: message.pixel,
  };
}

const templates: Record<string, { on: Recorded; off: Recorded }> = {};
const queue = [...LIBRARY_EMAILS];
// Two at a time: one spamassassin process is mostly Perl start-up on one core.
await Promise.all(
  [0, 1].map(async () => {
    for (let t = queue.shift(); t; t = queue.shift()) {
      templates[t.slug] = { on: await record(t, true), off: await record(t, false) };
      process.stdout.write('.');
    }
  }),
);
const sorted = Object.fromEntries(LIBRARY_EMAILS.map((t) => [t.slug, templates[t.slug]!]));
const stats = (key: 'on' | 'off') => {
  const scores = Object.values(sorted).map((t) => t[key].score);
  return {
    max: Math.max(...scores),
    mean: Math.round((scores.reduce((a, b) => a + b, 0) / scores.length) * 100) / 100,
  };
};
const version = execFileSync(spamassassin, ['-V']).toString().split('\n')[0]!.trim();
const file = path.join(import.meta.dirname, '../tests/fixtures/spam-scores.json');
const summary = { on: stats('on'), off: stats('off') };
writeFileSync(
  file,
  `${JSON.stringify({ spamassassin: version, composedWith: COMPOSED_WITH, summary, templates: sorted }, null, 2)}\n`,
);
execFileSync('npx', ['biome', 'format', '--write', file], { stdio: 'ignore' });
process.stdout.write(`\n${Object.keys(sorted).length} templates: ${JSON.stringify(summary)}\n${file}\n`);
