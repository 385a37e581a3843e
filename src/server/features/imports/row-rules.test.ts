import { isRoleAddress, isRoleLocalPart } from '@shared/contacts';
import isEmail from 'validator/lib/isEmail.js';
import { describe, expect, it } from 'vitest';
import { extractEmail } from './csv-inspect';
import { isDisposableDomain, isDisposableEmailDomain, normaliseEmail } from './row-rules';

/** The rule as it reads in full: validator's isEmail on the whole address, every time. */
function reference(cell: string) {
  const value = extractEmail(cell);
  if (value.length === 0 || value.length > 254) return null;
  const at = value.lastIndexOf('@');
  if (at <= 0) return null;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1).toLowerCase();
  const bytes = (v: string) => Buffer.byteLength(v, 'utf8');
  if (bytes(value) > 254 || bytes(local) > 64 || bytes(domain) > 253) return null;
  if (domain.split('.').some((label) => label.length > 63)) return null;
  const options = {
    allow_utf8_local_part: true,
    require_tld: true,
    allow_ip_domain: false,
    ignore_max_length: true,
  };
  if (!isEmail(value, options)) return null;
  const email = `${local}@${domain}`;
  return { email, normalized: email.toLowerCase(), domain, local };
}

const CELLS = [
  'ada@example.com',
  'Ada.Obi@Example.COM',
  '  ada@example.com  ',
  'Ada <ada@example.com>',
  'mailto:ada@example.com',
  'ada+news@example.com',
  "o'brien@example.ie",
  'a.b.c@sub.example.co.uk',
  '.ada@example.com',
  'ada.@example.com',
  'ada..obi@example.com',
  'ada@@example.com',
  'ada@example',
  'ada@example.c',
  'ada@-example.com',
  'ada@example-.com',
  'ada@exa_mple.com',
  'ada@127.0.0.1',
  'ada@[127.0.0.1]',
  '"ada obi"@example.com',
  '"a@b"@example.com',
  '"unclosed@example.com',
  'zoë@example.com',
  'ZOË@Example.com',
  'ада@пример.рф',
  'ada@xn--e1afmkfd.xn--p1ai',
  'ada@ex ample.com',
  'ada obi@example.com',
  'ada\t@example.com',
  'ada@example.com.',
  '@example.com',
  'ada@',
  '',
  'a'.repeat(64) + '@example.com',
  'a'.repeat(65) + '@example.com',
  `ada@${'a'.repeat(63)}.com`,
  `ada@${'a'.repeat(64)}.com`,
  `ada@${'abcdefghi.'.repeat(25)}com`,
  `ada@${'abcdefghi.'.repeat(24)}com`,
  'ada@EXAMPLE.COM',
  'ada@İstanbul.com.tr',
  'ada@mailinator.com',
  'ada@sub.10mail.org',
  '{ada}@example.com',
  'ada|obi@example.com',
  'ada(obi)@example.com',
];

describe('normaliseEmail', () => {
  it('agrees with validator’s isEmail on the whole address, domain remembered or not', () => {
    for (let round = 0; round < 2; round++) {
      for (const cell of CELLS)
        expect(normaliseEmail(cell), `${cell} (round ${round})`).toEqual(reference(cell));
    }
  });

  it('judges one domain the same way whatever the local part', () => {
    expect(normaliseEmail('ada@example.com')).not.toBeNull();
    expect(normaliseEmail('ada..obi@example.com')).toBeNull();
    expect(normaliseEmail('"ada obi"@example.com')?.local).toBe('"ada obi"');
    expect(normaliseEmail('obi@example.com')?.normalized).toBe('obi@example.com');
  });
});

describe('isDisposableEmailDomain', () => {
  it('answers as isDisposableDomain, for domains seen in an address or not', () => {
    normaliseEmail('ada@mailinator.com');
    normaliseEmail('ada@sub.10mail.org');
    for (const domain of [
      'mailinator.com',
      'sub.10mail.org',
      'example.com',
      'never-seen.example',
      'MAILINATOR.COM',
    ])
      expect(isDisposableEmailDomain(domain), domain).toBe(isDisposableDomain(domain));
  });
});

describe('isRoleLocalPart', () => {
  it('answers as isRoleAddress for the lower-cased local part', () => {
    for (const email of [
      'info@example.com',
      'Sales+eu@example.com',
      'ada@example.com',
      'INFO@x.com',
      'info.ng@x.com',
    ])
      expect(isRoleLocalPart(email.slice(0, email.lastIndexOf('@')).toLowerCase()), email).toBe(
        isRoleAddress(email),
      );
  });
});
