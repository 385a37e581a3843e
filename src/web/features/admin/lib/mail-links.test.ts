import { describe, expect, it } from 'vitest';
import { extractMailLinks } from './mail-links';

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
});
