import { type FakeDns, startFakeDns } from '@tests/fakes/dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addSpfTerm,
  checkSenderDomain,
  createDnsResolver,
  type DnsResolver,
  devMailboxDomainCheck,
} from './domain-check.service';

const DKIM_KEY = `v=DKIM1; k=rsa; p=${'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA'.repeat(8)}IDAQAB`;

describe('checkSenderDomain', () => {
  let dns: FakeDns;
  let resolver: DnsResolver;
  beforeAll(async () => {
    dns = await startFakeDns({
      // Everything right.
      'good.test': {
        txt: ['google-site-verification=abc', 'v=spf1 ip4:8.8.4.4 include:_spf.partner.test -all'],
        mx: [
          { priority: 10, exchange: 'mx1.good.test' },
          { priority: 20, exchange: 'mx2.good.test' },
        ],
      },
      '_spf.partner.test': { txt: ['v=spf1 ip4:9.9.9.9 -all'] },
      'google._domainkey.good.test': { txt: [DKIM_KEY] },
      '_dmarc.good.test': { txt: ['v=DMARC1; p=reject; rua=mailto:d@good.test'] },
      // Half right.
      'soft.test': {
        txt: ['v=spf1 a mx ?all'],
        mx: [{ priority: 5, exchange: 'mail.soft.test' }],
        a: ['8.8.8.8'],
      },
      'mail.soft.test': { a: ['8.8.8.8'] },
      's1._domainkey.soft.test': { txt: ['k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQC'] },
      '_dmarc.soft.test': { txt: ['v=DMARC1; p=none'] },
      // Nothing published (the name exists, with no records).
      'bare.test': {},
      // SPF that does not name the account's server; two SPF records; a revoked key.
      'strict.test': { txt: ['v=spf1 include:_spf.partner.test -all'], mx: [{ priority: 0, exchange: '' }] },
      'twice.test': { txt: ['v=spf1 a -all', 'v=spf1 include:_spf.partner.test ~all'] },
      'selector1._domainkey.twice.test': { txt: ['v=DKIM1; p='] },
      // A subdomain under an organisation's DMARC policy.
      'news.org.test': { txt: ['v=spf1 ip4:8.8.4.4 ~all'] },
      '_dmarc.org.test': { txt: ['v=DMARC1; p=none; sp=quarantine'] },
    });
    resolver = createDnsResolver({ servers: [dns.server] });
  });
  afterAll(() => dns.close());

  it('passes a domain with SPF for the server, a DKIM key at a common selector, DMARC reject and MX', async () => {
    const check = await checkSenderDomain({
      fromEmail: 'ada@Good.test',
      smtpHostAddress: '8.8.4.4',
      resolver,
    });
    expect(check.domain).toBe('good.test');
    expect(check.spf).toMatchObject({
      status: 'pass',
      found: 'v=spf1 ip4:8.8.4.4 include:_spf.partner.test -all',
      fix: null,
    });
    expect(check.dkim).toMatchObject({ status: 'pass', selector: 'google', found: DKIM_KEY, fix: null });
    expect(check.dmarc).toMatchObject({ status: 'pass', fix: null });
    expect(check.mx).toMatchObject({ status: 'pass', found: '10 mx1.good.test, 20 mx2.good.test' });
    // The include is followed: a server the partner lists passes too.
    const viaInclude = await checkSenderDomain({
      fromEmail: 'ada@good.test',
      smtpHostAddress: '9.9.9.9',
      resolver,
    });
    expect(viaInclude.spf.status).toBe('pass');
  });

  it('warns about ?all and p=none, with the record that fixes each', async () => {
    const check = await checkSenderDomain({
      fromEmail: 'ada@soft.test',
      dkimSelector: 's1',
      smtpHostAddress: '8.8.8.8',
      resolver,
    });
    expect(check.spf).toMatchObject({
      status: 'warn',
      found: 'v=spf1 a mx ?all',
      fix: { type: 'TXT', host: 'soft.test', value: 'v=spf1 a mx ~all' },
    });
    expect(check.dkim).toMatchObject({ status: 'pass', selector: 's1' });
    expect(check.dmarc).toMatchObject({
      status: 'warn',
      fix: { type: 'TXT', host: '_dmarc.soft.test', value: 'v=DMARC1; p=quarantine' },
    });
  });

  it('says a domain that does not exist in DNS in sentences without stray punctuation', async () => {
    const check = await checkSenderDomain({ fromEmail: 'ada@nowhere.test', resolver });
    expect(check.mx).toMatchObject({
      status: 'fail',
      detail: 'nowhere.test does not exist in DNS: replies and bounces to your address will not arrive.',
    });
    for (const item of [check.spf, check.dkim, check.dmarc, check.mx]) {
      expect(item.detail).not.toMatch(/[.:;,]\s*[.:;,]/);
    }
  });

  it('fails a domain with nothing published and gives each record to add', async () => {
    const check = await checkSenderDomain({ fromEmail: 'ada@bare.test', resolver });
    expect(check.spf).toMatchObject({
      status: 'fail',
      fix: { type: 'TXT', host: 'bare.test', value: 'v=spf1 a mx ~all' },
    });
    expect(check.dkim).toMatchObject({ status: 'fail', selector: null });
    expect(check.dkim.detail).toContain(
      'google, selector1, selector2, default, s1, s2, k1, dkim, mail, zoho, zmail',
    );
    expect(check.dmarc).toMatchObject({
      status: 'fail',
      fix: { type: 'TXT', host: '_dmarc.bare.test', value: 'v=DMARC1; p=none; rua=mailto:dmarc@bare.test' },
    });
    expect(check.mx).toMatchObject({
      status: 'fail',
      fix: { type: 'MX', host: 'bare.test', value: '10 mail.bare.test' },
    });

    // A known provider gets its own SPF include, DKIM selector and MX in the suggestions.
    const gmail = await checkSenderDomain({
      fromEmail: 'ada@bare.test',
      smtpHost: 'smtp.gmail.com',
      resolver,
    });
    expect(gmail.spf.fix?.value).toBe('v=spf1 include:_spf.google.com ~all');
    expect(gmail.dkim.fix?.host).toBe('google._domainkey.bare.test');
    expect(gmail.mx.fix?.value).toBe('1 smtp.google.com');
  });

  it("fails SPF when the domain does not allow the account's SMTP server, with the record that would", async () => {
    const custom = await checkSenderDomain({
      fromEmail: 'ada@strict.test',
      smtpHostAddress: '8.8.8.8',
      resolver,
    });
    expect(custom.spf.status).toBe('fail');
    expect(custom.spf.detail).toContain('8.8.8.8');
    expect(custom.spf.fix).toEqual({
      type: 'TXT',
      host: 'strict.test',
      value: 'v=spf1 include:_spf.partner.test ip4:8.8.8.8 -all',
    });
    const gmail = await checkSenderDomain({
      fromEmail: 'ada@strict.test',
      smtpHost: 'smtp.gmail.com',
      smtpHostAddress: '8.8.8.8',
      resolver,
    });
    expect(gmail.spf.fix?.value).toBe('v=spf1 include:_spf.partner.test include:_spf.google.com -all');
    // A null MX accepts no mail.
    expect(custom.mx.status).toBe('fail');
    expect(custom.mx.detail).toContain('null MX');
  });

  it('fails two SPF records (merged into one fix), a revoked key and a missing given selector', async () => {
    const check = await checkSenderDomain({ fromEmail: 'ada@twice.test', resolver });
    expect(check.spf).toMatchObject({
      status: 'fail',
      fix: { value: 'v=spf1 a include:_spf.partner.test ~all' },
    });
    expect(check.dkim.status).toBe('fail');
    const revoked = await checkSenderDomain({
      fromEmail: 'ada@twice.test',
      dkimSelector: 'selector1',
      resolver,
    });
    expect(revoked.dkim).toMatchObject({ status: 'fail', selector: 'selector1' });
    expect(revoked.dkim.detail).toContain('revoked');
    const missing = await checkSenderDomain({ fromEmail: 'ada@good.test', dkimSelector: 'k9', resolver });
    expect(missing.dkim).toMatchObject({
      status: 'fail',
      selector: 'k9',
      fix: { type: 'TXT', host: 'k9._domainkey.good.test' },
    });
  });

  it("applies the organisation's subdomain policy to a subdomain", async () => {
    const check = await checkSenderDomain({ fromEmail: 'news@news.org.test', resolver });
    expect(check.dmarc.status).toBe('pass');
    expect(check.dmarc.detail).toContain('inherited from org.test');
  });

  it('turns DNS that does not answer into warnings, never an error', async () => {
    const silent: DnsResolver = {
      resolveTxt: () => Promise.reject(Object.assign(new Error('timeout'), { code: 'ETIMEOUT' })),
      resolveMx: () => Promise.reject(Object.assign(new Error('timeout'), { code: 'ESERVFAIL' })),
      resolve: () => Promise.reject(Object.assign(new Error('timeout'), { code: 'ETIMEOUT' })),
    };
    const check = await checkSenderDomain({
      fromEmail: 'ada@good.test',
      smtpHostAddress: '8.8.4.4',
      resolver: silent,
    });
    for (const item of [check.spf, check.dkim, check.dmarc, check.mx]) {
      expect(item.status).toBe('warn');
      expect(item.detail).toContain('could not look up');
    }
  });
});

describe('addSpfTerm', () => {
  it('inserts before the all (or a redirect), once', () => {
    expect(addSpfTerm('v=spf1 mx -all', 'ip4:1.2.3.4')).toBe('v=spf1 mx ip4:1.2.3.4 -all');
    expect(addSpfTerm('v=spf1 redirect=_spf.x.test', 'ip4:1.2.3.4')).toBe(
      'v=spf1 ip4:1.2.3.4 redirect=_spf.x.test',
    );
    expect(addSpfTerm('v=spf1 mx', 'ip4:1.2.3.4')).toBe('v=spf1 mx ip4:1.2.3.4 ~all');
    expect(addSpfTerm('v=spf1 ip4:1.2.3.4 ~all', 'ip4:1.2.3.4')).toBe('v=spf1 ip4:1.2.3.4 ~all');
  });
});

describe('devMailboxDomainCheck', () => {
  it('passes every item without DNS', () => {
    const check = devMailboxDomainCheck('demo@tambari.test');
    expect(check.domain).toBe('tambari.test');
    for (const item of [check.spf, check.dkim, check.dmarc, check.mx]) {
      expect(item).toMatchObject({ status: 'pass', detail: 'Development mailbox: no DNS needed' });
    }
  });
});
