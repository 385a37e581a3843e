import { describe, expect, it } from 'vitest';

import { isLoadableScriptUrl } from './paystack';

describe('isLoadableScriptUrl', () => {
  it('accepts the real and the test-mode inline scripts', () => {
    expect(isLoadableScriptUrl('https://js.paystack.co/v2/inline.js')).toBe(true);
    expect(isLoadableScriptUrl('http://127.0.0.1:45119/inline.js')).toBe(true);
    expect(isLoadableScriptUrl('/fake/inline.js', 'http://localhost:3000/payment')).toBe(true);
  });

  it('refuses anything that is not an http(s) script', () => {
    expect(isLoadableScriptUrl('javascript:alert(1)')).toBe(false);
    expect(isLoadableScriptUrl('data:text/javascript,alert(1)')).toBe(false);
    expect(isLoadableScriptUrl('not a url')).toBe(false);
  });
});
