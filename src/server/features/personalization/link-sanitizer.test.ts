import { describe, expect, it } from 'vitest';
import { sanitizeMailHtml, scanTemplateUrls } from './link-sanitizer';

const clean = (html: string) => sanitizeMailHtml(html).html;

describe('sanitizeMailHtml', () => {
  it('leaves a body with only web, mail and phone links byte for byte', () => {
    const html =
      '<p>Hi&nbsp;Ada, see <a href="https://kanofoods.example.com/offer?a=1&amp;b=2">our offer</a>, <a href="MAILTO:ada@x.example">mail</a> or <a href="tel:+234">call</a>.<img src="https://cdn.example.com/logo.png" alt=""></p>';
    expect(sanitizeMailHtml(html)).toEqual({ html, removed: [] });
  });

  it('judges a body seen before the same way, and what one caller changes is not what the next gets', () => {
    const name = `Ada ${Math.random()}`;
    const html = `<p>Hi ${name}, <a href="javascript:alert(1)">here</a> and <a href="https://x.example/">there</a></p>`;
    const first = sanitizeMailHtml(html);
    expect(first.removed).toHaveLength(1);
    first.removed[0]!.value = 'changed';
    first.removed.push({ ...first.removed[0]! });
    const again = sanitizeMailHtml(html);
    expect(again.html).toBe(`<p>Hi ${name}, <a>here</a> and <a href="https://x.example/">there</a></p>`);
    expect(again.removed).toEqual([
      expect.objectContaining({ element: 'a', attribute: 'href', value: 'javascript:alert(1)' }),
    ]);
  });

  it('tells apart bodies of one length that differ only between the characters it samples', () => {
    // Equal length, equal at every 64th character: they differ only inside the href (characters 9-28).
    const tail = `<p>${'Fresh produce. '.repeat(20)}${Math.random()}</p>`;
    const safe = `<a href="https://ok.example/x">t</a>${tail}`;
    const unsafe = `<a href="javascript:alert(1)/">t</a>${tail}`;
    expect(safe.length).toBe(unsafe.length);
    for (let round = 0; round < 3; round++) {
      expect(sanitizeMailHtml(safe)).toEqual({ html: safe, removed: [] });
      expect(sanitizeMailHtml(unsafe).html).toBe(`<a>t</a>${tail}`);
    }
  });

  it.each([
    ['javascript:alert(1)'],
    ['JaVaScRiPt:alert(1)'],
    ['JaVaScRiPt&#58;alert(1)'],
    ['javascript&#x3A;alert(1)'],
    ['javascript&colon;alert(1)'],
    ['&#x6A;avascript:alert(1)'],
    ['&#106;&#97;vascript:alert(1)'],
    ['&#0000106avascript:alert(1)'],
    ['java&#09;script:alert(1)'],
    ['java&Tab;script:alert(1)'],
    ['java\tscript:alert(1)'],
    ['java\nscript:alert(1)'],
    ['  javascript:alert(1)'],
    ['&#x20;javascript:alert(1)'],
    ['vbscript:msgbox(1)'],
    ['data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=='],
    ['//evil.com/login'],
    ['/relative/page'],
    ['#top'],
    [''],
  ])('removes href="%s" and keeps the link text', (href) => {
    const out = sanitizeMailHtml(`<p>Read <a href="${href}" style="color:#1d4ed8">the offer</a> today</p>`);
    expect(out.html).toBe('<p>Read <a style="color:#1d4ed8">the offer</a> today</p>');
    expect(out.removed).toHaveLength(1);
    expect(out.removed[0]).toMatchObject({ element: 'a', attribute: 'href' });
  });

  it('removes unquoted and single-quoted values, and uppercase attribute names', () => {
    expect(clean('<a href=javascript:alert(1)>x</a>')).toBe('<a>x</a>');
    expect(clean("<a href='javascript:alert(1)'>x</a>")).toBe('<a>x</a>');
    expect(clean('<A HREF="javascript:alert(1)">x</A>')).toBe('<a>x</a>');
  });

  it('judges the first of two href attributes, as browsers do', () => {
    expect(clean('<a href="javascript:alert(1)" href="https://ok.example">x</a>')).toBe('<a>x</a>');
  });

  it('allows images only from web addresses and cid:', () => {
    expect(clean('<img src="javascript:alert(1)" alt="logo">')).toBe('<img alt="logo">');
    expect(clean('<img src="data:image/svg+xml;base64,PHN2Zz4=" alt="">')).toBe('<img alt="">');
    expect(clean('<img src="//evil.com/x.png">')).toBe('<img>');
    const cid = '<img src="cid:logo@tambari">';
    expect(clean(cid)).toBe(cid);
  });

  it('checks the other URL attributes: background, action, formaction, xlink:href, poster, srcset', () => {
    expect(
      clean(
        '<table background="javascript:alert(1)"><tr><td background="https://ok.example/bg.png">x</td></tr></table>',
      ),
    ).toBe('<table><tr><td background="https://ok.example/bg.png">x</td></tr></table>');
    expect(
      clean('<form action="javascript:alert(1)"><button formaction="vbscript:x">Go</button></form>'),
    ).toBe('<form><button>Go</button></form>');
    expect(clean('<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>')).toBe(
      '<svg><a><text>x</text></a></svg>',
    );
    expect(clean('<video poster="javascript:alert(1)"></video>')).toBe('<video></video>');
    expect(
      clean(
        '<img srcset="https://a.example/1.png 1x, javascript:alert(1) 2x" src="https://a.example/1.png">',
      ),
    ).toBe('<img src="https://a.example/1.png">');
  });

  it('removes markup that would hide a link from this check but not from a browser', () => {
    const comment = sanitizeMailHtml('<p>x</p><!-- a --!><a href="javascript:alert(1)">y</a>-->');
    expect(comment.html).not.toContain('javascript');
    expect(comment.removed).toHaveLength(1);
    const style = sanitizeMailHtml('<style></style/><a href="javascript:alert(1)">y</a></style><p>z</p>');
    expect(style.html).not.toContain('javascript');
    // Outlook's conditional comments are not such markup.
    const mso = '<!--[if mso]><table><tr><td><![endif]--><p>x</p><!--[if !mso]><!--><p>y</p><!--<![endif]-->';
    expect(clean(mso)).toBe(mso);
  });
});

describe('Outlook conditional comments', () => {
  it('removes an Outlook-only block whose link fails, and keeps one whose link is fine', () => {
    const bad = sanitizeMailHtml(
      '<!--[if mso]><v:roundrect xmlns:v="urn:schemas-microsoft-com:vml" href="javascript:alert(1)"><center>Go</center></v:roundrect><![endif]--><p>x</p>',
    );
    expect(bad.html).toBe('<p>x</p>');
    expect(bad.removed).toEqual([expect.objectContaining({ element: '#comment' })]);
    const good =
      '<!--[if mso]><v:roundrect xmlns:v="urn:schemas-microsoft-com:vml" href="https://ok.example"><center>Go</center></v:roundrect><![endif]--><p>x</p>';
    expect(clean(good)).toBe(good);
  });
});

describe('scanTemplateUrls', () => {
  it('finds links removed for everyone and links a contact value decides', () => {
    const found = scanTemplateUrls(
      '<a href="javascript:void(0)">a</a><a href="{{ company }}">b</a><a href="https://x.example/{{ company }}">c</a>',
    );
    expect(found.unsafe.map((u) => u.value)).toEqual(['javascript:void(0)']);
    expect(found.perContact.map((u) => u.value)).toEqual(['{{ company }}']);
    // In an Outlook-only block, a merge-tag link is left to the send as well.
    expect(
      scanTemplateUrls('<!--[if mso]><v:roundrect href="{{ website }}"></v:roundrect><![endif]-->').unsafe,
    ).toEqual([]);
  });
});
