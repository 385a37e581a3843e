import { describe, expect, it } from 'vitest';
import { droppedNewsletterLinks, mergeTagNewsletterLinks, renderNewsletter } from './newsletter-render';
import { type NewsletterBlock, newsletterBlocksSchema } from './newsletters';

const blocks: NewsletterBlock[] = newsletterBlocksSchema.parse([
  { id: '1', type: 'heading', text: 'Hello {{ firstName | default: "there" }} & <friends>' },
  {
    id: '2',
    type: 'text',
    text: 'First **bold** and *soft* with [our site](https://example.com/?a=1&b=2).\nSame paragraph.\n\nSecond one.',
  },
  { id: '3', type: 'image', src: 'https://cdn.example.com/banner.png', alt: 'Harvest "season"', width: 600 },
  { id: '4', type: 'button', label: 'Shop <now>', href: 'https://shop.example.com/p?x=1&y=2' },
  { id: '5', type: 'divider' },
  {
    id: '6',
    type: 'columns',
    columns: [
      [{ id: '6a', type: 'image', src: 'https://cdn.example.com/a.png', alt: 'Left', width: 600 }],
      [{ id: '6b', type: 'text', text: 'Right column' }],
    ],
  },
  { id: '7', type: 'social', links: [{ network: 'linkedin', url: 'https://linkedin.com/company/kano' }] },
  { id: '8', type: 'footer', text: 'Kano Foods, 12 Marina Road, Lagos' },
]);

const { html, text } = renderNewsletter({ subject: 'March <news>', preheader: 'Inside: new menu', blocks });
const body = html.slice(html.indexOf('<body'));

describe('newsletter renderer: what email clients need', () => {
  it('lays out with tables, not divs, in a 600px container', () => {
    expect(html).not.toMatch(/<div\b/i);
    expect(html).toContain('width="600"');
    expect(html).toContain('max-width:600px');
    expect(body.match(/<table\b[^>]*>/g)!.every((t) => t.includes('role="presentation"'))).toBe(true);
  });

  it('has no external CSS, fonts or scripts, and styles every visible element inline', () => {
    expect(html).not.toMatch(/<link\b|@import|<script\b|url\(/i);
    for (const tag of body.match(/<(p|h1|h2|h3|a|img|td|table|span|strong|em)\b[^>]*>/g)!) {
      expect(tag, tag).toMatch(/style="[^"]+"/);
    }
  });

  it('stacks the columns on phones only through a media query, with inline widths as the fallback', () => {
    expect(html).toMatch(/@media only screen and \(max-width:620px\)\{[^}]*\.tb-container/);
    expect(html).toMatch(/\.tb-col\{display:block !important;width:100% !important/);
    const cols = body.match(/<td class="tb-col"[^>]*>/g)!;
    expect(cols).toHaveLength(2);
    for (const col of cols) expect(col).toContain('width="50%"');
  });

  it('gives every image a width and an alt text, capped to the space it sits in', () => {
    const images = body.match(/<img\b[^>]*>/g)!;
    expect(images).toHaveLength(2);
    for (const img of images) {
      expect(img).toMatch(/ width="\d+"/);
      expect(img).toMatch(/ alt="[^"]*"/);
    }
    expect(images[0]).toContain('width="536"');
    expect(images[0]).toContain('alt="Harvest &#34;season&#34;"');
    expect(Number(/width="(\d+)"/.exec(images[1]!)![1])).toBeLessThanOrEqual(260);
  });

  it('escapes text and link addresses, keeping merge tags intact for personalisation', () => {
    expect(html).toContain('Hello {{ firstName | default: "there" }} &#38; &#60;friends&#62;');
    expect(html).toContain('href="https://example.com/?a=1&#38;b=2"');
    expect(html).toContain('href="https://shop.example.com/p?x=1&#38;y=2"');
    expect(html).toContain('Shop &#60;now&#62;');
    expect(html).toContain('<title>March &#60;news&#62;</title>');
    expect(html).toContain('<strong style="font-weight:700;">bold</strong>');
    expect(html).toContain('<em style="font-style:italic;">soft</em>');
    expect(html).toContain('and <em');
    expect(html).toContain('.<br>Same paragraph.');
  });

  it('makes the button bulletproof: the cell carries the colour as well as the link', () => {
    expect(html).toMatch(
      /<td align="center" bgcolor="#1d4ed8" style="[^"]*background-color:#1d4ed8;[^"]*"><a href="https:\/\/shop/,
    );
  });

  it('is safe in dark mode: declares its colour schemes and sets background and text colours explicitly', () => {
    expect(html).toContain('<meta name="color-scheme" content="light dark">');
    expect(html).toContain('@media (prefers-color-scheme: dark)');
    expect(html).toMatch(/<body[^>]*background-color:#f3f4f6/);
    expect(html).toMatch(/bgcolor="#ffffff" style="[^"]*background-color:#ffffff/);
    for (const p of body.match(/<(p|h1)\b[^>]*>/g)!) expect(p).toMatch(/[^-]color:#[0-9a-f]{6}/i);
  });

  it('puts the preheader first, hidden', () => {
    expect(body).toMatch(/^<body[^>]*>\n<span style="display:none;[^"]*">Inside: new menu/);
  });

  it('refuses to emit a dangerous link even when handed one directly', () => {
    const unsafe = renderNewsletter({
      subject: 's',
      preheader: '',
      blocks: [
        {
          id: 'x',
          type: 'button',
          label: 'x',
          href: 'javascript:alert(1)',
          background: '#000000',
          color: '#ffffff',
          align: 'center',
        },
        { id: 'y', type: 'text', text: '[x](javascript:alert(1))', align: 'left', color: '#374151' },
        { id: 'z', type: 'image', src: 'javascript:alert(1)', alt: '', width: 100, href: '', align: 'left' },
      ],
    });
    expect(unsafe.html).not.toContain('javascript:');
    expect(unsafe.html).not.toMatch(/<img\b/);
    // The link is dropped, its text kept: no href="#" that would only reload the web version.
    expect(unsafe.html).not.toMatch(/href="#"/);
    expect(unsafe.html).toMatch(/<a target="_blank"[^>]*>x<\/a>/);
    expect(unsafe.text).not.toContain('javascript:');
    expect(unsafe.text).toContain('x');
  });

  it('lists the links it leaves out, for the editor to warn about', () => {
    expect(
      droppedNewsletterLinks([
        {
          id: 'a',
          type: 'text',
          text: 'See [ok](https://ok.example) and [bad](javascript:alert(1)) or [rel](//evil.example)',
          align: 'left',
          color: '#374151',
        },
        {
          id: 'b',
          type: 'button',
          label: 'Go',
          href: '{{ website }}',
          background: '#000000',
          color: '#ffffff',
          align: 'center',
        },
      ]),
    ).toEqual(['javascript:alert(1', '//evil.example']);
    expect(
      mergeTagNewsletterLinks([
        {
          id: 'b',
          type: 'button',
          label: 'Go',
          href: '{{ website }}',
          background: '#000000',
          color: '#ffffff',
          align: 'center',
        },
        {
          id: 'c',
          type: 'button',
          label: 'Go',
          href: 'https://x.example/{{ id }}',
          background: '#000000',
          color: '#ffffff',
          align: 'center',
        },
      ]),
    ).toEqual(['{{ website }}']);
  });

  it('has a readable text part with the links written out', () => {
    expect(text).toContain('Hello {{ firstName | default: "there" }} & <friends>');
    expect(text).toContain('First bold and soft with our site (https://example.com/?a=1&b=2).');
    expect(text).toContain('Shop <now>: https://shop.example.com/p?x=1&y=2');
    expect(text).toContain('[Harvest "season"]');
    expect(text).toContain('LinkedIn: https://linkedin.com/company/kano');
    expect(text).toContain('Kano Foods, 12 Marina Road, Lagos');
    expect(text).not.toMatch(/<(p|a|h1|table|td|img|strong|em|br)\b/);
  });
});
