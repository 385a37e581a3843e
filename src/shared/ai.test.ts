import { describe, expect, it } from 'vitest';
import {
  aiRewriteInputSchema,
  aiWriteInputSchema,
  cleanRewrite,
  ensureHtmlParagraphs,
  parseAiDraft,
  stripFences,
  toPlainText,
} from './ai';

const DEFAULT_FAKE_DRAFT =
  'Subject: A quick idea for {{ company | default: "your team" }}\n\n<p>Hello {{ firstName | default: "there" }},</p>\n<p>Would a call work?</p>';

describe('parseAiDraft', () => {
  it('splits the subject line from the HTML body', () => {
    expect(
      parseAiDraft('Subject: Quick question\n\n<p>Hello {{ firstName | default: "there" }},</p>'),
    ).toEqual({
      subject: 'Quick question',
      html: '<p>Hello {{ firstName | default: "there" }},</p>',
      subjectComplete: true,
    });
  });

  it('gives the same result for every way the stream may be cut into chunks', () => {
    const full = parseAiDraft(DEFAULT_FAKE_DRAFT);
    expect(full.subject).toBe('A quick idea for {{ company | default: "your team" }}');
    for (let cut = 0; cut <= DEFAULT_FAKE_DRAFT.length; cut++) {
      const partial = parseAiDraft(DEFAULT_FAKE_DRAFT.slice(0, cut));
      // A prefix never shows text that is not in the final draft, and never shows "Subject:" as body.
      expect(partial.html).not.toMatch(/^Subject/i);
      expect(full.subject.startsWith(partial.subject)).toBe(true);
      if (partial.html) expect(full.html.startsWith(partial.html)).toBe(true);
    }
  });

  it('keeps the subject in progress until its line ends', () => {
    expect(parseAiDraft('Sub')).toEqual({ subject: '', html: '', subjectComplete: false });
    expect(parseAiDraft('Subject: Hello wor')).toEqual({
      subject: 'Hello wor',
      html: '',
      subjectComplete: false,
    });
    expect(parseAiDraft('Subject: Hello world\n')).toEqual({
      subject: 'Hello world',
      html: '',
      subjectComplete: true,
    });
  });

  it('reads the variants models produce: bold labels, quotes, code fences, CRLF', () => {
    expect(parseAiDraft('**Subject:** "Let\'s talk logistics"\r\n\r\n<p>Hi</p>').subject).toBe(
      "Let's talk logistics",
    );
    expect(parseAiDraft('```html\nSubject: Hi\n\n<p>Body</p>\n```')).toMatchObject({
      subject: 'Hi',
      html: '<p>Body</p>',
    });
    expect(parseAiDraft('  \nObjet : Votre nouvelle agence\n\n<p>Bonjour</p>').subject).toBe(
      'Votre nouvelle agence',
    );
  });

  it('treats an answer without a subject line as all body', () => {
    expect(parseAiDraft('<p>Hello there</p>')).toEqual({
      subject: '',
      html: '<p>Hello there</p>',
      subjectComplete: true,
    });
    expect(parseAiDraft('')).toEqual({ subject: '', html: '', subjectComplete: false });
  });
});

describe('cleaning helpers', () => {
  it('strips code fences, also one still arriving', () => {
    expect(stripFences('```\n<p>x</p>\n```')).toBe('<p>x</p>');
    expect(stripFences('```html\n<p>x</p>\n`')).toBe('<p>x</p>\n');
    expect(stripFences('<p>no fences</p>')).toBe('<p>no fences</p>');
    expect(stripFences('``')).toBe('');
  });

  it('wraps plain paragraphs in <p> and escapes them, leaving HTML alone', () => {
    expect(ensureHtmlParagraphs('Hello {{ firstName }},\n\nA & B\nline')).toBe(
      '<p>Hello {{ firstName }},</p>\n<p>A &amp; B<br>line</p>',
    );
    expect(ensureHtmlParagraphs('<p>Already</p>')).toBe('<p>Already</p>');
  });

  it('turns an HTML answer to a plain-text selection back into text', () => {
    expect(toPlainText('<p>We move goods &amp; people.</p><p>Call {{ senderName }}</p>')).toBe(
      'We move goods & people.\nCall {{ senderName }}',
    );
    expect(toPlainText('Already plain')).toBe('Already plain');
  });

  it('drops a "Here is…" preamble from a rewrite', () => {
    expect(cleanRewrite('Here is the improved text:\nWe move goods faster.')).toBe('We move goods faster.');
    expect(cleanRewrite('We move goods faster.')).toBe('We move goods faster.');
  });
});

describe('request schemas', () => {
  it('fills defaults for tone, length, language and audience', () => {
    expect(aiWriteInputSchema.parse({ kind: 'email', goal: 'Book more demos with clinics' })).toEqual({
      kind: 'email',
      goal: 'Book more demos with clinics',
      audience: '',
      tone: 'professional',
      length: 'medium',
      language: 'en',
    });
  });

  it('refuses control characters and a translation without a language', () => {
    expect(aiWriteInputSchema.safeParse({ kind: 'email', goal: 'Book demos\u0000 now please' }).success).toBe(
      false,
    );
    expect(aiRewriteInputSchema.safeParse({ action: 'translate', text: 'Hello' }).success).toBe(false);
    expect(
      aiRewriteInputSchema.safeParse({ action: 'translate', text: 'Hello', language: 'pcm' }).success,
    ).toBe(true);
  });
});
