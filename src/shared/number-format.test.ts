import { describe, expect, it } from 'vitest';

import { numberFormat } from './number-format';

describe('numberFormat', () => {
  it('hands back one formatter per locale and options, made once', () => {
    const first = numberFormat('en-NG');
    expect(numberFormat('en-NG')).toBe(first);
    expect(numberFormat('en-US', { maximumFractionDigits: 2 })).toBe(
      numberFormat('en-US', { maximumFractionDigits: 2 }),
    );
    expect(numberFormat('en-US', { maximumFractionDigits: 0 })).not.toBe(
      numberFormat('en-US', { maximumFractionDigits: 2 }),
    );
    expect(numberFormat()).toBe(numberFormat(undefined));
  });

  it('formats as a new Intl.NumberFormat with the same arguments would', () => {
    expect(numberFormat('en-NG').format(1234567)).toBe(new Intl.NumberFormat('en-NG').format(1234567));
    expect(numberFormat('en-US', { minimumFractionDigits: 2 }).format(3.5)).toBe('3.50');
  });
});
