import { describe, expect, it } from 'vitest';
import { extractMailLinks, withoutOpenPixel } from './mail-links';

describe('extractMailLinks', () => {
  it('finds links in the HTML and text parts once each, in order', () => {
    const html = '<p><a href="https://app.test/reset-password?token=abc&amp;x=1">Reset</a></p>';
    const text = 'Reset here: https://app.test/reset-password?token=abc&x=1. Or visit http://help.test/docs';
    expect(extractMailLinks(html, text)).toEqual([
      'https://app.test/reset-password?token=abc&x=1',
      'http://help.test/docs',
    ]);
  });

  it('ignores other schemes and empty parts', () => {
    expect(extractMailLinks('<a href="mailto:a@b.test">mail</a> javascript:alert(1)', null)).toEqual([]);
    expect(extractMailLinks(null, null)).toEqual([]);
  });

  it('stops at the limit', () => {
    const text = Array.from({ length: 30 }, (_, i) => `https://x.test/${i}`).join(' ');
    expect(extractMailLinks(null, text, 5)).toHaveLength(5);
  });

  it('leaves out XML namespaces and the open pixel', () => {
    const html =
      '<html xmlns="http://www.w3.org/1999/xhtml"><a href="http://app.test/t/c/abc/0">Offer</a>' +
      '<img src="http://app.test/t/o/Xy3_kP9-aQ2mN7wL1zR5tA.gif" width="1" height="1" alt=""></html>';
    expect(extractMailLinks(html, null)).toEqual(['http://app.test/t/c/abc/0']);
  });
});

describe('withoutOpenPixel', () => {
  it('removes our pixel and keeps every other image', () => {
    const html =
      '<p><img src="https://cdn.test/logo.png" alt="Logo"></p>' +
      '<img src="http://app.test/t/o/Xy3_kP9-aQ2mN7wL1zR5tA.gif" width="1" height="1" alt="" style="display:block">';
    expect(withoutOpenPixel(html)).toBe('<p><img src="https://cdn.test/logo.png" alt="Logo"></p>');
  });
});
