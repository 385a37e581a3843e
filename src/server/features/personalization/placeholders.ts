import {
  findLinkPlaceholders,
  findTextPlaceholders,
  type PlaceholderFinding,
  textUrls,
} from '@shared/placeholders';
import { analyzeMergeTags, suggestTag } from './merge-tags';
import { extractLinks, visibleText } from './spam-rules';
import { flattenSpintax } from './spintax';

/*
 * The placeholder detector of shared/placeholders.ts for an email's subject and HTML body, plus what
 * only the server can tell: merge tags nobody fills (not a contact or sender tag, not a custom field of
 * the audience's lists), which would go out empty ("Hello ,"), and other tools' tags (`*|FNAME|*`).
 */

export interface CopyPlaceholders {
  subject: PlaceholderFinding[];
  body: PlaceholderFinding[];
}

function unique(findings: PlaceholderFinding[]): PlaceholderFinding[] {
  const seen = new Set<string>();
  // "[firstName]" is named once, as the merge tag it was meant to be.
  const tagTexts = findings.filter((f) => f.kind === 'merge_tag').map((f) => f.text);
  return findings.filter((f) => {
    const key = `${f.kind}:${f.text}`;
    if (seen.has(key)) return false;
    if (f.kind === 'bracketed' && tagTexts.some((t) => t.startsWith(f.text))) return false;
    seen.add(key);
    return true;
  });
}

/** The body's links: every href and src, and addresses written as text. */
function bodyUrls(html: string, text: string): string[] {
  const urls = extractLinks(html).map((link) => link.href);
  for (const match of html.matchAll(/\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)')/gi))
    urls.push(match[1] ?? match[2] ?? '');
  return [...urls, ...textUrls(text)];
}

/** Merge tags that would be sent empty, and tags written the way other tools write them. */
export function mergeTagPlaceholders(input: {
  subject: string;
  html: string;
  knownFields: readonly string[];
}): CopyPlaceholders {
  const out: CopyPlaceholders = { subject: [], body: [] };
  for (const part of ['subject', 'body'] as const) {
    const tags = analyzeMergeTags({
      subject: part === 'subject' ? input.subject : '',
      html: part === 'body' ? input.html : '',
      knownFields: input.knownFields,
    });
    for (const tag of [...tags.unknownTags, ...tags.unsubscribeTags]) {
      const suggestion = suggestTag(tag.replace(/^fields\./, ''), input.knownFields);
      out[part].push({
        kind: 'merge_tag',
        text: `{{ ${tag} }}`,
        message: `{{ ${tag} }} is not a merge tag${suggestion ? ` (did you mean {{ ${suggestion} }}?)` : ''}: it would be sent empty`,
      });
    }
    for (const error of tags.syntaxErrors) {
      const message = error.replace(/^(Subject|Body): /, '');
      out[part].push({ kind: 'merge_tag', text: message, message });
    }
  }
  return out;
}

/**
 * Every placeholder of a subject and HTML body (spintax options included). `knownFields` are the custom
 * fields of the audience's lists; pass `mergeTags: false` where merge tags are checked on their own.
 */
export function findCopyPlaceholders(input: {
  subject: string;
  html: string;
  knownFields: readonly string[];
  mergeTags?: boolean;
}): CopyPlaceholders {
  const subject = flattenSpintax(input.subject);
  const html = flattenSpintax(input.html);
  const bodyText = visibleText(html);
  const tags =
    input.mergeTags === false
      ? { subject: [], body: [] }
      : mergeTagPlaceholders({ subject, html, knownFields: input.knownFields });
  return {
    subject: unique([
      ...findTextPlaceholders(subject),
      ...findLinkPlaceholders(textUrls(subject)),
      ...tags.subject,
    ]),
    body: unique([
      ...findTextPlaceholders(bodyText),
      ...findLinkPlaceholders(bodyUrls(html, bodyText)),
      ...tags.body,
    ]),
  };
}

/** The warnings of a test send: each placeholder of the copy, the subject's first and marked so. */
export function testSendWarnings(input: {
  subject: string;
  html: string;
  knownFields: readonly string[];
}): string[] {
  const found = findCopyPlaceholders(input);
  // Unknown merge tags first: they are what a test send is most likely to hide ("Hello ,").
  const order = (f: PlaceholderFinding) => (f.kind === 'merge_tag' ? 0 : 1);
  return [
    ...[...found.subject].sort((a, b) => order(a) - order(b)).map((f) => `Subject: ${f.message}`),
    ...[...found.body].sort((a, b) => order(a) - order(b)).map((f) => f.message),
  ];
}
