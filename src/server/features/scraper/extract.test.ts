import { describe, expect, it } from 'vitest';
import {
  businessNameFrom,
  deobfuscateEmails,
  extractPage,
  extractSitemap,
  findEmails,
  findPhones,
  guessCategory,
  isPlausibleEmail,
} from './extract';

const page = (body: string, head = '') =>
  `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

describe('email extraction', () => {
  it('reads mailto links and plain addresses, lower-cased and once each', () => {
    expect(
      findEmails('Write to Sales@Adebayo-Logistics.com.ng or sales@adebayo-logistics.com.ng.', [
        'mailto:info@adebayo-logistics.com.ng?subject=Hello',
      ]),
    ).toEqual(['info@adebayo-logistics.com.ng', 'sales@adebayo-logistics.com.ng']);
  });

  it('undoes the usual obfuscations', () => {
    expect(deobfuscateEmails('amina [at] kilimo.co.ke')).toBe('amina@kilimo.co.ke');
    expect(deobfuscateEmails('amina (at) kilimo (dot) co (dot) ke')).toBe('amina@kilimo.co.ke');
    expect(deobfuscateEmails('amina{at}kilimo[dot]co.ke')).toBe('amina@kilimo.co.ke');
    expect(deobfuscateEmails('orders at accrafoods dot com dot gh')).toBe('orders@accrafoods.com.gh');
    expect(findEmails('Email: kwame [at] accrafoods [dot] com', [])).toEqual(['kwame@accrafoods.com']);
  });

  it('refuses image names, placeholders and tracking ids', () => {
    expect(isPlausibleEmail('logo@2x.png')).toBe(false);
    expect(isPlausibleEmail('you@example.com')).toBe(false);
    expect(isPlausibleEmail('name@yourdomain.com')).toBe(false);
    expect(isPlausibleEmail('3f2a9c0b1d4e5f6a7b8c9d0e@sentry.io')).toBe(false);
    expect(isPlausibleEmail('hello@tambari.ng')).toBe(true);
    expect(findEmails('icon-sprite@3x.webp banner@2x.jpg', [])).toEqual([]);
  });
});

describe('phone extraction', () => {
  it('gives E.164 for local African numbers with the country as a hint', () => {
    expect(findPhones('Call 0803 123 4567 today', [], 'NG')).toEqual(['+2348031234567']);
    expect(findPhones('Tel: 024 412 3456', [], 'GH')).toEqual(['+233244123456']);
    expect(findPhones('Simu: 0712 345678', [], 'KE')).toEqual(['+254712345678']);
    expect(findPhones('', ['tel:+27%2021%20555%201234'], null)).toEqual(['+27215551234']);
  });

  it('keeps international numbers whatever the hint, and drops what is not a number', () => {
    expect(findPhones('Head office +234 803 123 4567', [], 'GH')).toEqual(['+2348031234567']);
    expect(findPhones('Founded 1998, 25 staff, order 12345', [], 'NG')).toEqual([]);
  });
});

describe('business fields', () => {
  it('names the business from the title without the page words', () => {
    expect(businessNameFrom({ title: 'Contact Us | Adebayo Logistics Ltd', host: 'x.ng' })).toBe(
      'Adebayo Logistics Ltd',
    );
    expect(businessNameFrom({ title: 'Home - Kilimo Fresh', host: 'x' })).toBe('Kilimo Fresh');
    expect(businessNameFrom({ title: 'Welcome', siteName: 'Accra Foods', host: 'x' })).toBe('Accra Foods');
    expect(businessNameFrom({ title: '', host: 'www.lagosprint.ng' })).toBe('Lagosprint');
  });

  it('guesses a category from the business words, or none', () => {
    expect(guessCategory('Adebayo Haulage & Logistics', 'Trucking and freight across West Africa')).toBe(
      'logistics',
    );
    expect(guessCategory('Kilimo Fresh', 'Poultry farm: eggs and broilers, cattle ranch')).toBe(
      'livestock-poultry',
    );
    expect(guessCategory('Zzq', 'Nothing to see')).toBeNull();
  });

  it('prefers schema.org JSON-LD for name, address, city and country', () => {
    const html = page(
      '<p>Reach us: info@kilimofresh.co.ke, 0712 345678</p>',
      `<title>Home</title><script type="application/ld+json">${JSON.stringify({
        '@context': 'https://schema.org',
        '@type': 'LocalBusiness',
        name: 'Kilimo Fresh Poultry',
        address: {
          '@type': 'PostalAddress',
          streetAddress: '12 Moi Avenue',
          addressLocality: 'Nairobi',
          addressCountry: 'KE',
        },
      })}</script>`,
    );
    const result = extractPage(html, new URL('https://kilimofresh.com/contact'), null);
    expect(result.business).toEqual({
      companyName: 'Kilimo Fresh Poultry',
      emails: ['info@kilimofresh.co.ke'],
      phones: ['+254712345678'],
      address: '12 Moi Avenue',
      city: 'Nairobi',
      countryCode: 'KE',
      category: 'livestock-poultry',
    });
  });

  it('takes the country from the domain when the page does not say', () => {
    const result = extractPage(
      page('<a href="mailto:hello@lagosprint.com.ng">Email</a> <address>5 Broad Street, Lagos</address>'),
      new URL('https://lagosprint.com.ng/'),
      null,
    );
    expect(result.business?.countryCode).toBe('NG');
    expect(result.business?.address).toBe('5 Broad Street, Lagos');
  });

  it('keeps nothing from a page without an address, or one marked noindex', () => {
    expect(extractPage(page('<p>No contact here</p>'), new URL('https://a.ng/'), 'NG').business).toBeNull();
    const noindex = extractPage(
      page('<p>info@a.ng</p><a href="/next">next</a>', '<meta name="robots" content="noindex">'),
      new URL('https://a.ng/'),
      'NG',
    );
    expect(noindex.business).toBeNull();
    expect(noindex.links).toEqual(['https://a.ng/next']);
  });

  it('ignores addresses inside scripts and styles', () => {
    const result = extractPage(
      page('<script>var x = "bot@a.ng";</script><style>.a{}</style><p>Hi</p>'),
      new URL('https://a.ng/'),
      null,
    );
    expect(result.business).toBeNull();
  });
});

describe('links', () => {
  it('resolves links against the page and <base>, without fragments, files or nofollow', () => {
    const result = extractPage(
      page(
        '<a href="/about#team">About</a><a href="contact">Contact</a><a href="brochure.pdf">PDF</a>' +
          '<a href="javascript:void(0)">x</a><a rel="nofollow" href="/login">Login</a>' +
          '<a href="mailto:x@a.ng">m</a><a href="https://other.ng/">Other</a>',
        '<base href="https://a.ng/en/">',
      ),
      new URL('https://a.ng/en/index.html'),
      null,
    );
    expect(result.links).toEqual(['https://a.ng/about', 'https://a.ng/en/contact', 'https://other.ng/']);
  });

  it('follows nothing from a nofollow page', () => {
    const result = extractPage(
      page('<a href="/x">x</a>', '<meta name="robots" content="nofollow">'),
      new URL('https://a.ng/'),
      null,
    );
    expect(result.links).toEqual([]);
  });

  it('reads sitemaps and sitemap indexes', () => {
    expect(
      extractSitemap(
        '<?xml version="1.0"?><urlset><url><loc>https://a.ng/x?a=1&amp;b=2</loc></url><url><loc> /y </loc></url></urlset>',
        new URL('https://a.ng/sitemap.xml'),
      ),
    ).toEqual({ urls: ['https://a.ng/x?a=1&b=2', 'https://a.ng/y'], nested: false });
    expect(
      extractSitemap(
        '<sitemapindex><sitemap><loc><![CDATA[https://a.ng/s1.xml]]></loc></sitemap></sitemapindex>',
        new URL('https://a.ng/sitemap.xml'),
      ),
    ).toEqual({ urls: ['https://a.ng/s1.xml'], nested: true });
  });
});
