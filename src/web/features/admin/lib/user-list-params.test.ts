import { describe, expect, it } from 'vitest';
import { readUserListParams, writeUserListParams } from './user-list-params';

describe('readUserListParams', () => {
  it('gives the defaults for an empty URL', () => {
    expect(readUserListParams(new URLSearchParams())).toEqual({
      tab: 'users',
      search: '',
      role: undefined,
      plan: undefined,
      status: undefined,
      page: 1,
      auditPage: 1,
    });
  });

  it('keeps valid values and drops invalid ones', () => {
    const state = readUserListParams(
      new URLSearchParams('tab=audit&q=ada&role=super_admin&plan=gold&status=suspended&page=3&auditPage=-2'),
    );
    expect(state).toMatchObject({
      tab: 'audit',
      search: 'ada',
      role: 'super_admin',
      status: 'suspended',
      page: 3,
    });
    expect(state.plan).toBeUndefined();
    expect(state.auditPage).toBe(1);
  });
});

describe('writeUserListParams', () => {
  it('round-trips and leaves defaults out', () => {
    const params = writeUserListParams({
      tab: 'users',
      search: '  ada ',
      role: 'user',
      plan: 'starter',
      status: undefined,
      page: 1,
      auditPage: 2,
    });
    expect(params.toString()).toBe('q=ada&role=user&plan=starter&auditPage=2');
    expect(readUserListParams(params)).toMatchObject({
      search: 'ada',
      role: 'user',
      plan: 'starter',
      auditPage: 2,
    });
  });
});
