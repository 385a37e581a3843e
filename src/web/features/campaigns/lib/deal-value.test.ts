import { describe, expect, it } from 'vitest';
import { formatMoney, parseDealValue } from './deal-value';

describe('deal value', () => {
  it('reads amounts as people type them', () => {
    expect(parseDealValue('250,000')).toEqual({ ok: true, value: 250000 });
    expect(parseDealValue('₦ 1 200.50')).toEqual({ ok: true, value: 1200.5 });
    expect(parseDealValue('0')).toEqual({ ok: true, value: 0 });
  });

  it('refuses empty, negative, text and over-precise amounts with a reason', () => {
    expect(parseDealValue('')).toEqual({ ok: false, message: 'Enter the deal value' });
    expect(parseDealValue('-5').ok).toBe(false);
    expect(parseDealValue('ten').ok).toBe(false);
    expect(parseDealValue('1.234').ok).toBe(false);
    expect(parseDealValue('9'.repeat(14))).toEqual({ ok: false, message: 'That amount is too large' });
  });

  it('formats money per currency', () => {
    expect(formatMoney(250000, 'NGN')).toMatch(/250,000/);
    expect(formatMoney(250000, 'NGN')).not.toMatch(/\.00/);
    expect(formatMoney(1200.5, 'USD')).toBe('$1,200.50');
  });
});
