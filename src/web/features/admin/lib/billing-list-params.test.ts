import { describe, expect, it } from 'vitest';

import { readListState, writeListState } from '@/lib/url-list-state';

import {
  ORDER_LIST,
  orderedRange,
  parseLimitInput,
  parseNairaInput,
  readSubscriptionsTab,
  SUBSCRIPTION_LIST,
} from './billing-list-params';

describe('order list params', () => {
  const read = (query: string) => readListState(new URLSearchParams(query), ORDER_LIST);

  it('round-trips the filters through the URL', () => {
    const state = {
      search: 'ada',
      filters: { status: 'success', plan: 'starter', from: '2026-01-01', to: '2026-01-31' },
      page: 3,
      pageSize: ORDER_LIST.defaultPageSize,
      sort: undefined,
    };
    expect(readListState(writeListState(state, ORDER_LIST), ORDER_LIST)).toEqual(state);
  });

  it('drops what a hand-edited link got wrong and reads a reversed range the right way round', () => {
    expect(read('status=paid&plan=gold&from=yesterday&page=-2')).toEqual({
      search: '',
      filters: {},
      page: 1,
      pageSize: ORDER_LIST.defaultPageSize,
      sort: undefined,
    });
    const { from, to } = read('from=2026-02-10&to=2026-02-01').filters;
    expect(orderedRange(from, to)).toEqual(['2026-02-01', '2026-02-10']);
  });

  it('leaves defaults out of the URL', () => {
    expect(writeListState(read(''), ORDER_LIST).toString()).toBe('');
  });
});

describe('subscription list params', () => {
  it('reads the tab, state and paid plan', () => {
    const params = new URLSearchParams('tab=plans&status=past_due&plan=enterprise&q=x');
    expect(readSubscriptionsTab(params)).toBe('plans');
    expect(readListState(params, SUBSCRIPTION_LIST)).toMatchObject({
      search: 'x',
      filters: { status: 'past_due', plan: 'enterprise' },
      page: 1,
    });
    const free = readListState(new URLSearchParams('plan=free&status=none'), SUBSCRIPTION_LIST);
    expect(free.filters).toEqual({});
  });

  it('keeps the tab when the list writes its state', () => {
    const state = { ...readListState(new URLSearchParams(), SUBSCRIPTION_LIST), page: 2 };
    expect(writeListState(state, SUBSCRIPTION_LIST, new URLSearchParams('tab=plans')).toString()).toBe(
      'tab=plans&page=2',
    );
  });
});

describe('plan editor inputs', () => {
  it('turns naira into whole kobo', () => {
    expect(parseNairaInput('15000')).toBe(1_500_000);
    expect(parseNairaInput('₦15,000')).toBe(1_500_000);
    expect(parseNairaInput('99.5')).toBe(9_950);
    expect(parseNairaInput('12.345')).toBeNull();
    expect(parseNairaInput('-5')).toBeNull();
    expect(parseNairaInput('ten')).toBeNull();
  });

  it('reads Unlimited, -1 and empty as -1, and refuses anything else that is not a whole number', () => {
    expect(parseLimitInput('Unlimited')).toBe(-1);
    expect(parseLimitInput('-1')).toBe(-1);
    expect(parseLimitInput('')).toBe(-1);
    expect(parseLimitInput('10,000')).toBe(10_000);
    expect(parseLimitInput('2.5')).toBeNull();
    expect(parseLimitInput('-3')).toBeNull();
  });
});
