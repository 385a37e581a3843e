// `npx tsx scripts/spamassassin-pixel.ts`: sends every library email template through the real composer
// (prepareMessageContent → asEmailDocument → buildMailOptions → composeRawMessage, as queueMessages and
// dispatch do) with the open pixel on and off, scores each message with SpamAssassin's local rules
// (`spamassassin -L`: no network tests, no Bayes) and records the figures in
// tests/fixtures/spamassassin-pixel.json. spam-rules.test.ts checks our HTML_IMAGE_ONLY emulation against
// them. Needs `spamassassin` on PATH (Debian: apt-get install spamassassin); one message takes about 1 s.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderTemplate } from '../src/server/features/personalization/merge-tags';
import { mergeScope, type PersonalizeContact } from '../src/server/features/personalization/personalize';
import { flattenSpintax } from '../src/server/features/personalization/spintax';
import { asEmailDocument, prepareMessageContent } from '../src/server/features/sending/message-content';
import { buildMailOptions } from '../src/server/features/sending/message-envelope';
import { composeRawMessage } from '../src/server/features/sending/raw-message';
import { LIBRARY_TEMPLATES } from '../src/server/seed/templates/index';

/** What every message is composed with; the test composes the same HTML from these. */
const COMPOSED_WITH = {
  trackingBaseUrl: 'https://app.tambari.ng',
  trackClicks: true,
  senderName: 'Tunde Bello',
  fromEmail: 'tunde@bellotrading.ng',
  postalAddress: '12 Allen Avenue, Ikeja, Lagos',
  contact: {
    email: 'amaka@kanofoods.ng',
    firstName: 'Amaka',
    lastName: 'Okonkwo',
    company: 'Kano Foods',
    city: 'Lagos',
    countryCode: 'NG',
    fields: {},
  },
};

const TOKEN = 'AbCdEfGhIjKlMnOpQrStUv'; // as long as a real outbox token

interface Verdict {
  score: number;
  tests: string[];
  /** The HTML part's length in characters, as SpamAssassin measures it: a changed template shows here. */
  htmlChars: number;
}

function spamassassin({ raw, htmlChars }: { raw: Buffer; htmlChars: number }): Verdict {
  const out = execFileSync('spamassassin', ['-L'], { input: raw, maxBuffer: 16 * 1024 * 1024 }).toString();
  const status = /^X-Spam-Status: ([\s\S]*?)\n(?=\S)/m.exec(out)?.[1]?.replace(/\s+/g, ' ') ?? '';
  const score = Number(/score=(-?[\d.]+)/.exec(status)?.[1] ?? Number.NaN);
  const tests = (/tests=(\S*)/.exec(status)?.[1] ?? '').split(',').filter((t) => t && t !== 'none');
  return { score, tests, htmlChars };
}

function compose(
  bodyHtml: string,
  subjectTemplate: string,
  trackOpens: boolean,
): { raw: Buffer; htmlChars: number } {
  const w = COMPOSED_WITH;
  const scope = mergeScope(w.contact as PersonalizeContact, {
    fromName: w.senderName,
    fromEmail: w.fromEmail,
  });
  const html = renderTemplate(flattenSpintax(bodyHtml), scope, 'html').output;
  const subject = renderTemplate(flattenSpintax(subjectTemplate), scope, 'text').output;
  const content = prepareMessageContent({
    html,
    token: TOKEN,
    trackingBaseUrl: w.trackingBaseUrl,
    trackOpens,
    trackClicks: w.trackClicks,
  });
  const mail = buildMailOptions({
    messageId: `${TOKEN}@bellotrading.ng`,
    token: TOKEN,
    trackingBaseUrl: w.trackingBaseUrl,
    from: { name: w.senderName, email: w.fromEmail },
    replyTo: null,
    to: { name: 'Amaka Okonkwo', email: w.contact.email },
    subject,
    html: asEmailDocument(content.html),
    text: content.text,
    postalAddress: w.postalAddress,
    senderName: w.senderName,
    unsubscribeMailto: null,
  });
  return { raw: composeRawMessage(mail), htmlChars: [...String(mail.html)].length };
}

function main() {
  const templates: Record<string, { off: Verdict; on: Verdict }> = {};
  for (const template of LIBRARY_TEMPLATES) {
    if (template.kind !== 'email') continue;
    templates[template.slug] = {
      off: spamassassin(compose(template.bodyHtml, template.subject, false)),
      on: spamassassin(compose(template.bodyHtml, template.subject, true)),
    };
    process.stdout.write('.');
  }
  const stats = (key: 'on' | 'off') => {
    const scores = Object.values(templates).map((t) => t[key].score);
    const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
    return { max: Math.max(...scores), mean: Math.round(mean * 100) / 100 };
  };
  const version = execFileSync('spamassassin', ['-V']).toString().split('\n')[0]!.trim();
  const file = path.join(import.meta.dirname, '../tests/fixtures/spamassassin-pixel.json');
  const summary = { on: stats('on'), off: stats('off') };
  writeFileSync(
    file,
    `${JSON.stringify({ spamassassin: version, composedWith: COMPOSED_WITH, summary, templates }, null, 2)}\n`,
  );
  // The repository's formatter has the last word on the file's layout (lint checks JSON too).
  execFileSync('npx', ['biome', 'format', '--write', file], { stdio: 'ignore' });
  process.stdout.write(`\n${Object.keys(templates).length} templates: ${JSON.stringify(summary)}\n${file}\n`);
}

main();
