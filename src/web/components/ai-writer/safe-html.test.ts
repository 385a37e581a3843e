import { describe, expect, it } from 'vitest';
import { toSafeHtml } from './safe-html';

describe('toSafeHtml', () => {
  it('keeps the tags of a written email and the merge tags', () => {
    const html =
      '<h2>News</h2><p>Hello {{ firstName | default: "there" }},</p><ul><li><strong>One</strong></li></ul><p><a href="https://tambari.test/x?a=1&amp;b=2">Read</a><br></p>';
    expect(toSafeHtml(html)).toBe(html);
  });

  it('drops scripts, styles, event handlers and dangerous links', () => {
    expect(toSafeHtml('<p onclick="steal()">Hi</p><script>alert(1)</script><style>p{}</style>')).toBe(
      '<p>Hi</p>',
    );
    expect(toSafeHtml('<a href="javascript:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(toSafeHtml('<img src=x onerror=alert(1)><iframe src="https://evil"></iframe>ok')).toBe('ok');
    expect(toSafeHtml('<p style="color:red" class="x">Hi</p>')).toBe('<p>Hi</p>');
    expect(toSafeHtml('<a href="{{ website }}">Site</a>')).toBe('<a href="{{ website }}">Site</a>');
  });

  it('keeps the links an email keeps (shared/mail-links.ts) and no other', () => {
    expect(toSafeHtml('<a href="tel:+2348012345678">Call</a>')).toBe('<a href="tel:+2348012345678">Call</a>');
    expect(toSafeHtml('<a href="MAILTO:a@b.test">Mail</a>')).toBe('<a href="MAILTO:a@b.test">Mail</a>');
    for (const href of [
      'JaVaScRiPt&#58;alert(1)',
      '&#x6A;avascript:alert(1)',
      'java\tscript:x',
      '//evil.test',
      'data:text/html,x',
    ]) {
      expect(toSafeHtml(`<a href="${href}">x</a>`), href).toBe('<a>x</a>');
    }
  });

  it('escapes stray angle brackets and ampersands but not entities', () => {
    expect(toSafeHtml('<p>A & B &amp; 3 > 2</p>')).toBe('<p>A &amp; B &amp; 3 &gt; 2</p>');
  });

  it('hides a tag that is still arriving', () => {
    expect(toSafeHtml('<p>Hello</p><p cla')).toBe('<p>Hello</p>');
    expect(toSafeHtml('<p>Hello <str')).toBe('<p>Hello ');
  });

  it('never lets an unclosed script show its content', () => {
    expect(toSafeHtml('<p>a</p><script>partial')).toBe('<p>a</p>');
  });
});
