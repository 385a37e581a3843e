import { segmentRuleSchema } from '@shared/segments';
import { describe, expect, it } from 'vitest';
import { newRow, toRow, toRule, valueKind, withField } from './segment-draft';

describe('segment builder rows', () => {
  it('turns rows into rules the API accepts, and back', () => {
    const rows = [
      { what: 'field:city', operator: 'in', value: 'Lagos, Abuja ,' },
      { what: 'custom:stage', operator: 'is_empty', value: 'ignored' },
      { what: 'date:addedAt', operator: 'after', value: '2026-01-31' },
      { what: 'engagement:clicked', operator: 'not_in_last_days', value: '14' },
    ];
    const rules = rows.map(toRule);
    expect(rules).toEqual([
      { type: 'field', field: 'city', operator: 'in', value: ['Lagos', 'Abuja'] },
      { type: 'custom', field: 'stage', operator: 'is_empty', value: undefined },
      { type: 'date', field: 'addedAt', operator: 'after', value: '2026-01-31' },
      { type: 'engagement', event: 'clicked', operator: 'not_in_last_days', days: 14 },
    ]);
    for (const rule of rules) expect(segmentRuleSchema.safeParse(rule).success).toBe(true);
    expect(toRow(rules[0]!)).toEqual({ what: 'field:city', operator: 'in', value: 'Lagos, Abuja' });
    expect(toRow(rules[3]!)).toEqual(rows[3]);
  });

  it('keeps the operator a new field also has, and resets what no longer fits', () => {
    const row = { what: 'field:city', operator: 'contains', value: 'Lag' };
    expect(withField(row, 'custom:stage')).toEqual({
      what: 'custom:stage',
      operator: 'contains',
      value: 'Lag',
    });
    expect(withField(row, 'date:addedAt')).toEqual({
      what: 'date:addedAt',
      operator: 'before',
      value: '',
    });
    expect(withField(row, 'engagement:opened')).toEqual({
      what: 'engagement:opened',
      operator: 'in_last_days',
      value: '30',
    });
    expect(valueKind(newRow('engagement:replied'))).toBe('days');
  });
});
