import { describe, expect, it } from 'vitest';
import { addressOf, formatFrom } from './mailer';

describe('system mail From header', () => {
  it('takes the address out of SMTP_FROM, with or without a name', () => {
    expect(addressOf('Tambari <no-reply@tambari.test>')).toBe('no-reply@tambari.test');
    expect(addressOf('no-reply@tambari.test')).toBe('no-reply@tambari.test');
  });

  it('puts the operator’s From name on it, quoted when it needs to be, never with a line break', () => {
    expect(formatFrom('Tambari', 'no-reply@tambari.test')).toBe('Tambari <no-reply@tambari.test>');
    expect(formatFrom('Tambari Ltd.', 'a@b.test')).toBe('"Tambari Ltd." <a@b.test>');
    expect(formatFrom('Ops, "Lagos"', 'a@b.test')).toBe('"Ops, \\"Lagos\\"" <a@b.test>');
    expect(formatFrom('Evil\r\nBcc: x@y.test', 'a@b.test')).toBe('"Evil Bcc: x@y.test" <a@b.test>');
    expect(formatFrom('  ', 'a@b.test')).toBe('a@b.test');
  });
});
