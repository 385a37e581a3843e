import { SPAM_SCORE_THRESHOLD } from '@shared/personalize';
import { SPAM_CATEGORIES } from './spam-words';

/*
 * A SpamAssassin-like score for one email's copy: phrase rules from the maintained word list
 * (spam-words.ts) plus structure rules (shouting, !!!, link and image habits, hidden text, disguised
 * links). Each rule adds its points once; above SPAM_SCORE_THRESHOLD (5.0, SpamAssassin's default) the
 * pre-launch check warns. It reads the template as written (all spintax options, merge tags as they are).
 */

export interface SpamHit {
  rule: string;
  description: string;
  score: number;
}

export interface SpamReport {
  score: number;
  hits: SpamHit[];
  spammy: boolean;
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

interface CompiledPhrase {
  category: (typeof SPAM_CATEGORIES)[number];
  phrase: string;
  weight: number;
}

// One alternation per list, longest phrases first so "limited time offer" wins over "limited time".
// Word boundaries are Unicode-aware lookarounds; phrases ending in punctuation ("free!") end anywhere.
const PHRASES = new Map<string, CompiledPhrase>();
for (const category of SPAM_CATEGORIES) {
  for (const [phrase, weight] of Object.entries(category.phrases)) {
    PHRASES.set(phrase, { category, phrase, weight });
  }
}
const PHRASE_PATTERN = new RegExp(
  `(?<![\\p{L}\\p{N}])(${[...PHRASES.keys()]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join('|')})(?![\\p{L}\\p{N}])`,
  'giu',
);

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The visible text of an HTML body, roughly: enough for word rules. */
export function visibleText(html: string): string {
  return html
    .replace(/<(style|script|head|title)[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<br\s*\/?>|<\/(p|div|h\d|li|tr|td)>/gi, '\n')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x?[0-9a-f]+|\w+);/gi, (whole, name: string) => {
      if (name.startsWith('#')) {
        const code =
          name[1]?.toLowerCase() === 'x' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
        return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : ' ';
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/[ \t\f\v]+/g, ' ')
    .trim();
}

export interface LinkInfo {
  href: string;
  text: string;
}

/** The links (<a href>) of a body with their visible text. */
export function extractLinks(html: string): LinkInfo[] {
  const links: LinkInfo[] = [];
  for (const match of html.matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a\s*>/gi)) {
    const href = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(match[1] ?? '');
    if (!href) continue;
    const value = (href[1] ?? href[2] ?? href[3] ?? '').trim().replace(/&amp;/g, '&');
    links.push({ href: value, text: visibleText(match[2] ?? '') });
  }
  return links;
}

function hostOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.hostname.toLowerCase() : null;
  } catch {
    return null;
  }
}

const baseDomain = (host: string) =>
  host
    .replace(/^www\./, '')
    .split('.')
    .slice(-2)
    .join('.');

function phraseHits(
  text: string,
  weightFactor: number,
  label: string,
  seen: Set<string>,
  totals: Map<string, number>,
  hits: SpamHit[],
) {
  for (const match of text.matchAll(PHRASE_PATTERN)) {
    const phrase = match[1]!.toLowerCase();
    const entry = PHRASES.get(phrase);
    if (!entry || seen.has(phrase)) continue;
    seen.add(phrase);
    const used = totals.get(entry.category.id) ?? 0;
    const score = Math.min(entry.weight * weightFactor, entry.category.cap - used);
    if (score <= 0) continue;
    totals.set(entry.category.id, used + score);
    hits.push({
      rule: `phrase:${entry.category.id}`,
      description: `${label} says "${phrase}" (${entry.category.label.toLowerCase()})`,
      score,
    });
  }
}

function capsRatio(text: string): { letters: number; ratio: number } {
  const letters = text.match(/\p{L}/gu) ?? [];
  const upper = text.match(/\p{Lu}/gu) ?? [];
  return { letters: letters.length, ratio: letters.length ? upper.length / letters.length : 0 };
}

/*
 * SpamAssassin's HTML_IMAGE_ONLY_04…32 (20_html_tests.cf, HTMLEval.pm html_image_only): the HTML part has
 * an <img> tag anywhere and its *raw* length — the HTML source in characters, markup included, not the
 * visible text — is at most 3,200. Where the image sits does not matter, so a 1×1 open pixel in a short
 * cold email fires one of them. Scores of the local rule set (50_scores.cf, score set 0: no network, no
 * Bayes), which is what a receiving SpamAssassin without network tests adds; docs/sending.md has more.
 */
const HTML_IMAGE_ONLY_BANDS: readonly { rule: string; max: number; score: number }[] = [
  { rule: 'HTML_IMAGE_ONLY_04', max: 400, score: 1.68 },
  { rule: 'HTML_IMAGE_ONLY_08', max: 800, score: 0.585 },
  { rule: 'HTML_IMAGE_ONLY_12', max: 1200, score: 1.381 },
  { rule: 'HTML_IMAGE_ONLY_16', max: 1600, score: 1.969 },
  { rule: 'HTML_IMAGE_ONLY_20', max: 2000, score: 2.109 },
  { rule: 'HTML_IMAGE_ONLY_24', max: 2400, score: 2.799 },
  { rule: 'HTML_IMAGE_ONLY_28', max: 2800, score: 2.799 },
  { rule: 'HTML_IMAGE_ONLY_32', max: 3200, score: 2.196 },
];

const LAST_BAND_MAX = HTML_IMAGE_ONLY_BANDS.at(-1)!.max;

/** The HTML_IMAGE_ONLY rule SpamAssassin fires on this HTML part as sent, if any. */
export function htmlImageOnly(sentHtml: string): { rule: string; score: number; length: number } | null {
  // HTML::Parser reports a tag named exactly "img"; a comment is no tag.
  const withoutComments = sentHtml.replace(/<!--[\s\S]*?-->/g, '');
  if (!/<img[\s/>]/i.test(withoutComments)) return null;
  // SpamAssassin measures the decoded part in characters (a ’ is one), so count code points, not bytes.
  if (sentHtml.length > 2 * LAST_BAND_MAX) return null;
  const length = [...sentHtml].length;
  if (length === 0) return null;
  const band = HTML_IMAGE_ONLY_BANDS.find((b) => length <= b.max);
  return band ? { rule: band.rule, score: band.score, length } : null;
}

export function scoreSpam(input: {
  subject: string;
  html: string;
  /**
   * The HTML part as it will be sent (open pixel, tracked links, document wrapper, footer). Given, the
   * image rule is SpamAssassin's own (HTML_IMAGE_ONLY_xx on its raw length) instead of the copy's estimate.
   */
  sentHtml?: string;
}): SpamReport {
  const hits: SpamHit[] = [];
  const add = (rule: string, description: string, score: number) => hits.push({ rule, description, score });
  // Merge tags read as the words a contact gets: drop them rather than count "{{ FIRSTNAME }}" as shouting.
  const subject = input.subject.replace(/\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g, ' ').trim();
  const html = input.html.replace(/\{%[\s\S]*?%\}/g, ' ');
  const text = visibleText(html.replace(/\{\{[\s\S]*?\}\}/g, ' '));

  const seen = new Set<string>();
  const totals = new Map<string, number>();
  phraseHits(subject, 1.5, 'The subject', seen, totals, hits);
  phraseHits(text, 1, 'The body', seen, totals, hits);

  const subjectCaps = capsRatio(subject);
  if (subjectCaps.letters >= 8 && subjectCaps.ratio >= 0.7)
    add('subject_caps', 'The subject is in CAPITALS', 1.5);
  if (/!{2,}/.test(subject)) add('subject_exclaim', 'The subject has "!!"', 1.2);
  else if (subject.includes('!')) add('subject_exclaim_one', 'The subject has an exclamation mark', 0.3);
  if (/\?{2,}/.test(subject)) add('subject_questions', 'The subject has "??"', 0.6);
  if (/\$\$|₦₦|€€|££/.test(`${subject} ${text}`))
    add('dollar_signs', 'The copy has "$$$"-style money signs', 1.5);
  if (/^\s*(re|fwd?)\s*:/i.test(subject))
    add('subject_fake_reply', 'The subject starts with Re:/Fwd: (a fake reply)', 0.8);
  if (subject.length > 90) add('subject_long', 'The subject is longer than 90 characters', 0.3);
  if (/^[^\p{L}\p{N}]*$/u.test(subject) && subject.length > 0)
    add('subject_no_words', 'The subject has no words', 1.0);

  const words = text.split(/\s+/).filter((w) => /\p{L}{3,}/u.test(w));
  const shouted = words.filter((w) => /^[^\p{Ll}]*\p{Lu}{3,}[^\p{Ll}]*$/u.test(w)).length;
  if (words.length >= 20 && shouted / words.length >= 0.3)
    add('body_caps', 'Much of the body is in CAPITALS', 1.2);
  const exclamations = (text.match(/!/g) ?? []).length;
  if (/!{3,}/.test(text)) add('body_exclaim_run', 'The body has "!!!"', 1.0);
  else if (exclamations >= 4) add('body_exclaim', `The body has ${exclamations} exclamation marks`, 0.6);

  const links = extractLinks(html);
  const images = (html.match(/<img\b/gi) ?? []).length;
  const textLength = text.replace(/\s+/g, ' ').length;
  if (links.length > 8) add('many_links', `The body has ${links.length} links`, 1.0);
  const imageOnly = input.sentHtml === undefined ? null : htmlImageOnly(input.sentHtml);
  if (imageOnly) {
    const pixelOnly = images === 0;
    add(
      'image_only',
      pixelOnly
        ? `The open-tracking pixel makes this short email "image only" to SpamAssassin (${imageOnly.rule})`
        : `A short email with an image is "image only" to SpamAssassin (${imageOnly.rule})`,
      imageOnly.score,
    );
  } else if (input.sentHtml === undefined && images > 0 && textLength < 100) {
    add('image_only', 'The email is mostly an image with little text', 2.0);
  } else if (images >= 3 && textLength < 400) add('low_text_ratio', 'Many images and little text', 1.0);
  if (/display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?![.\d])/i.test(html)) {
    add('hidden_text', 'The body hides text (display:none or font-size:0)', 1.0);
  }
  if (/<(script|form|iframe|embed|object)\b/i.test(html)) {
    add('active_content', 'The body has a script, form or iframe (mail clients block them)', 1.5);
  }
  let ipLink = false;
  let mismatch = false;
  for (const link of links) {
    const host = hostOf(link.href);
    if (!host) continue;
    if (/^\d{1,3}(\.\d{1,3}){3}$|^\[/.test(host)) ipLink = true;
    const shown = /^(https?:\/\/)?([a-z0-9-]+\.)+[a-z]{2,}(\/\S*)?$/i.exec(link.text.trim());
    if (shown) {
      const shownHost = hostOf(
        /^https?:/i.test(link.text.trim()) ? link.text.trim() : `https://${link.text.trim()}`,
      );
      if (shownHost && baseDomain(shownHost) !== baseDomain(host)) mismatch = true;
    }
  }
  if (ipLink) add('ip_link', 'A link points at an IP address instead of a domain', 1.5);
  if (mismatch) add('link_text_mismatch', 'A link shows one address but goes to another', 1.5);

  const score = Math.round(hits.reduce((sum, hit) => sum + hit.score, 0) * 10) / 10;
  hits.sort((a, b) => b.score - a.score);
  return { score, hits, spammy: score > SPAM_SCORE_THRESHOLD };
}
