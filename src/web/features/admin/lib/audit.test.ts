import { describe, expect, it } from 'vitest';
import { formatAuditAction, formatAuditTarget, summariseAuditDetails } from './audit';

describe('formatAuditAction', () => {
  it('turns machine names into words', () => {
    expect(formatAuditAction('user.suspend')).toBe('User suspend');
    expect(formatAuditAction('admin.user.set_role')).toBe('Admin user set role');
    expect(formatAuditAction('endSessions')).toBe('End sessions');
  });
});

describe('summariseAuditDetails', () => {
  it('lists keys and values on one line', () => {
    expect(summariseAuditDetails({ reason: 'Spam complaints', count: 3 })).toBe(
      'Reason: Spam complaints · Count: 3',
    );
  });

  it('shows {from, to} pairs as transitions and nested objects as JSON', () => {
    expect(summariseAuditDetails({ role: { from: 'user', to: 'super_admin' } })).toBe(
      'Role: User → Super Admin',
    );
    expect(summariseAuditDetails({ plan: { from: 'free', to: 'professional' } })).toBe('Plan: Free → Growth');
    expect(summariseAuditDetails({ role: { from: 'user', to: 'owner' } })).toBe('Role: User → owner');
    expect(summariseAuditDetails({ meta: { a: 1 } })).toBe('Meta: {"a":1}');
    expect(summariseAuditDetails({ ids: ['a', 'b'] })).toBe('Ids: [2 items]');
  });

  it('caps the number of parts and long values', () => {
    const summary = summariseAuditDetails({ a: 1, b: 2, c: 3, d: 4, e: 5 });
    expect(summary).toBe('A: 1 · B: 2 · C: 3 · +2 more');
    expect(summariseAuditDetails({ note: 'x'.repeat(100) })).toMatch(/^Note: x{57}…$/);
  });

  it('leaves out what the target already shows, unless told otherwise', () => {
    expect(summariseAuditDetails({ email: 'a@b.test', sessions: 2 })).toBe('Sessions: 2');
    expect(summariseAuditDetails({ email: 'a@b.test' }, { omit: [] })).toBe('Email: a@b.test');
  });

  it('shows a dash when there is nothing to say', () => {
    expect(summariseAuditDetails({})).toBe('—');
    expect(summariseAuditDetails({ email: 'a@b.test' })).toBe('—');
  });
});

describe('formatAuditTarget', () => {
  it('prefers an email from the details, else a shortened id', () => {
    expect(formatAuditTarget({ targetType: 'user', targetId: 'abc', details: { email: 'a@b.test' } })).toBe(
      'User a@b.test',
    );
    expect(formatAuditTarget({ targetType: 'user', targetId: '0123456789abcdef', details: {} })).toBe(
      'User 01234567…',
    );
    expect(formatAuditTarget({ targetType: 'dev_mailbox', targetId: null, details: {} })).toBe('Dev mailbox');
  });
});
