import { compile } from 'html-to-text';
import sanitizeHtml from 'sanitize-html';

/*
 * A bulk email's body comes from the rich-text editor (or its HTML source view): anything can be in it.
 * It is cleaned to the tags and inline styles an email needs before it is stored, so neither the mail
 * nor the public web version (served on our own origin) can carry scripts, frames or event handlers.
 */

const ALLOWED_TAGS = [
  ...sanitizeHtml.defaults.allowedTags,
  'img',
  'span',
  'font',
  'center',
  'u',
  's',
  'del',
  'sup',
  'sub',
  'h1',
  'h2',
  'h3',
  'h4',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'td',
  'th',
  'colgroup',
  'col',
];

const TABLE_ATTRS = [
  'width',
  'height',
  'align',
  'valign',
  'bgcolor',
  'border',
  'cellpadding',
  'cellspacing',
  'role',
];

export function sanitizeBulkHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ALLOWED_TAGS,
    allowedAttributes: {
      '*': ['style', 'class', 'align', 'dir', 'title'],
      a: ['href', 'target', 'rel', 'name'],
      img: ['src', 'alt', 'width', 'height'],
      table: TABLE_ATTRS,
      td: [...TABLE_ATTRS, 'colspan', 'rowspan'],
      th: [...TABLE_ATTRS, 'colspan', 'rowspan'],
      tr: TABLE_ATTRS,
      col: ['width', 'span'],
      font: ['color', 'face', 'size'],
    },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['http', 'https'] },
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
  });
}

const toText = compile({
  wordwrap: 100,
  selectors: [
    { selector: 'img', format: 'skip' },
    { selector: 'h1', options: { uppercase: false } },
    { selector: 'h2', options: { uppercase: false } },
    { selector: 'h3', options: { uppercase: false } },
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
  ],
});

export function bulkText(html: string): string {
  return toText(html).trim();
}

/** True when the HTML shows something: text or an image. */
export function hasVisibleContent(html: string): boolean {
  if (/<img\b/i.test(html)) return true;
  return bulkText(html).replace(/\s+/g, '') !== '';
}

/** The bulk email as a page and an email document (the editor gives a fragment). */
export function wrapBulkHtml(fragment: string, title: string): string {
  if (/<html[\s>]/i.test(fragment)) return fragment;
  const safeTitle = title.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${safeTitle}</title>
</head>
<body style="margin:0;padding:16px;font-family:Helvetica, Arial, sans-serif;font-size:15px;line-height:1.6;color:#1f2937;">
${fragment}
</body>
</html>
`;
}
