import { describe, expect, it } from 'vitest';
import { hasUnsupportedMarkup, isEmptyHtml, normalizeEditorHtml, normalizeLinkHref } from './html';

describe('rich text html helpers', () => {
  it('tells markup the visual editor would drop from markup it keeps', () => {
    expect(
      hasUnsupportedMarkup('<p>Hi <strong>{{ firstName }}</strong>, <a href="https://x.test">see</a></p>'),
    ).toBe(false);
    expect(hasUnsupportedMarkup('<ul><li>one</li></ul><h2>Title</h2>')).toBe(false);
    expect(hasUnsupportedMarkup('<table><tr><td>x</td></tr></table>')).toBe(true);
    expect(hasUnsupportedMarkup('<p style="color:red">x</p>')).toBe(true);
    expect(hasUnsupportedMarkup('<img src="a.png">')).toBe(true);
  });

  it('treats an editor-empty document as no body', () => {
    expect(isEmptyHtml('<p></p>')).toBe(true);
    expect(isEmptyHtml('<p><br></p>')).toBe(true);
    expect(isEmptyHtml('<p>&nbsp;</p>')).toBe(true);
    expect(isEmptyHtml('<p>Hi</p>')).toBe(false);
    expect(isEmptyHtml('<p><img src="x.png"></p>')).toBe(false);
    expect(normalizeEditorHtml('<p></p>')).toBe('');
    expect(normalizeEditorHtml('<p>Hello</p>')).toBe('<p>Hello</p>');
  });

  it('accepts safe links and refuses script-capable ones', () => {
    expect(normalizeLinkHref('tambari.test/pricing')).toBe('https://tambari.test/pricing');
    expect(normalizeLinkHref('https://tambari.test')).toBe('https://tambari.test');
    expect(normalizeLinkHref('mailto:sales@tambari.test')).toBe('mailto:sales@tambari.test');
    expect(normalizeLinkHref('{{ website }}')).toBe('{{ website }}');
    expect(normalizeLinkHref('javascript:alert(1)')).toBeNull();
    expect(normalizeLinkHref('data:text/html,x')).toBeNull();
    expect(normalizeLinkHref('  ')).toBeNull();
    expect(normalizeLinkHref('not a link')).toBeNull();
  });
});
