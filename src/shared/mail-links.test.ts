import { describe, expect, it } from 'vitest';
import { judgeMailUrl, judgeTemplateUrl, unsafeUrlAttributes, urlRoleOf } from './mail-links';

const kept = (value: string, role: 'link' | 'resource' = 'link') => judgeMailUrl(value, role).ok;

describe('judgeMailUrl: links a reader follows', () => {
  it('keeps web, mail and phone links in any case', () => {
    for (const url of [
      'https://kanofoods.example.com/offer',
      'http://kanofoods.example.com',
      'HTTPS://KANOFOODS.EXAMPLE.COM',
      'mailto:ada@kanofoods.example.com',
      'MAILTO:ada@kanofoods.example.com',
      'tel:+2348012345678',
      'TeL:+2348012345678',
      '  https://padded.example.com  ',
    ]) {
      expect(kept(url), url).toBe(true);
    }
  });

  it('removes script and data schemes however they are written', () => {
    for (const url of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      '  javascript:alert(1)',
      '\u0000javascript:alert(1)',
      '\u0001\u001fjavascript:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      'j\ra\tv\na\tscript:alert(1)',
      'vbscript:msgbox(1)',
      'VBScript:msgbox(1)',
      'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
      'DATA:text/html,<script>alert(1)</script>',
      'file:///etc/passwd',
      'sms:+2348012345678',
    ]) {
      expect(kept(url), JSON.stringify(url)).toBe(false);
    }
  });

  it('removes links without a scheme: protocol-relative, relative, fragments and empty ones', () => {
    for (const url of [
      '//evil.com',
      '\\\\evil.com',
      '/\\evil.com',
      '/offer',
      'offer.html',
      '#top',
      '',
      '   ',
    ]) {
      expect(kept(url), JSON.stringify(url)).toBe(false);
    }
    expect(judgeMailUrl('//evil.com', 'link')).toEqual({
      ok: false,
      reason: expect.stringContaining('no https://'),
    });
    expect(judgeMailUrl('javascript:alert(1)', 'link')).toEqual({
      ok: false,
      reason: expect.stringContaining('javascript:'),
    });
  });

  it('loads images only from web addresses and inline parts', () => {
    expect(kept('https://cdn.example.com/logo.png', 'resource')).toBe(true);
    expect(kept('cid:logo@tambari', 'resource')).toBe(true);
    expect(kept('mailto:ada@example.com', 'resource')).toBe(false);
    expect(kept('data:image/png;base64,AAAA', 'resource')).toBe(false);
    expect(kept('javascript:alert(1)', 'resource')).toBe(false);
    expect(kept('//evil.com/pixel.gif', 'resource')).toBe(false);
  });
});

describe('urlRoleOf', () => {
  it('knows the URL attributes of links, forms, media and SVG', () => {
    expect(urlRoleOf('a', 'href')).toBe('link');
    expect(urlRoleOf('A', 'HREF')).toBe('link');
    expect(urlRoleOf('form', 'action')).toBe('link');
    expect(urlRoleOf('button', 'formaction')).toBe('link');
    expect(urlRoleOf('a', 'xlink:href')).toBe('link');
    expect(urlRoleOf('img', 'src')).toBe('resource');
    expect(urlRoleOf('td', 'background')).toBe('resource');
    expect(urlRoleOf('video', 'poster')).toBe('resource');
    expect(urlRoleOf('link', 'href')).toBe('resource');
    expect(urlRoleOf('use', 'xlink:href')).toBe('resource');
    expect(urlRoleOf('object', 'data')).toBe('resource');
    expect(urlRoleOf('div', 'data')).toBe(null);
    expect(urlRoleOf('td', 'style')).toBe(null);
  });
});

describe('unsafeUrlAttributes', () => {
  it('names each attribute to remove with its reason', () => {
    const { unsafe } = unsafeUrlAttributes('a', {
      href: 'javascript:alert(1)',
      title: 'javascript:alert(1)',
      ping: 'https://ok.example.com',
    });
    expect(unsafe).toEqual([
      { element: 'a', attribute: 'href', value: 'javascript:alert(1)', reason: expect.any(String) },
    ]);
  });

  it('checks every candidate of a srcset', () => {
    expect(
      unsafeUrlAttributes('img', { srcset: 'https://a.example/x.png 1x, https://a.example/y.png 2x' }).unsafe,
    ).toEqual([]);
    expect(
      unsafeUrlAttributes('img', { srcset: 'https://a.example/x.png 1x, javascript:alert(1) 2x' }).unsafe,
    ).toHaveLength(1);
  });

  it('checks what an SVG animation or a meta refresh would set', () => {
    expect(
      unsafeUrlAttributes('set', { attributename: 'href', to: 'javascript:alert(1)' }).unsafe,
    ).toHaveLength(1);
    expect(
      unsafeUrlAttributes('animate', {
        attributename: 'xlink:href',
        values: 'https://a.example;javascript:alert(1)',
      }).unsafe,
    ).toHaveLength(1);
    expect(unsafeUrlAttributes('set', { attributename: 'fill', to: 'red' }).unsafe).toEqual([]);
    expect(
      unsafeUrlAttributes('meta', { 'http-equiv': 'refresh', content: '0;url=javascript:alert(1)' }).unsafe,
    ).toHaveLength(1);
  });

  it('in a template, leaves a value that starts with a merge tag to each contact', () => {
    const found = unsafeUrlAttributes('a', { href: '{{ company }}' }, { template: true });
    expect(found.unsafe).toEqual([]);
    expect(found.perContact).toHaveLength(1);
    expect(
      unsafeUrlAttributes('a', { href: 'https://x.example/?c={{ company }}' }, { template: true }),
    ).toEqual({
      unsafe: [],
      perContact: [],
    });
    expect(
      unsafeUrlAttributes('a', { href: 'javascript:{{ company }}' }, { template: true }).unsafe,
    ).toHaveLength(1);
  });
});

describe('judgeTemplateUrl', () => {
  it('judges the text before the first merge tag or spintax group', () => {
    expect(judgeTemplateUrl('https://{{ website }}', 'link')).toEqual({ kind: 'ok' });
    expect(judgeTemplateUrl('mailto:{{ email }}', 'link')).toEqual({ kind: 'ok' });
    expect(judgeTemplateUrl('{{ website }}', 'link')).toEqual({ kind: 'per-contact' });
    expect(judgeTemplateUrl('{https://a.example|https://b.example}', 'link')).toEqual({
      kind: 'per-contact',
    });
    expect(judgeTemplateUrl('java\tscript:{{ x }}', 'link')).toMatchObject({ kind: 'unsafe' });
    expect(judgeTemplateUrl('//{{ website }}', 'link')).toEqual({ kind: 'per-contact' });
  });
});
