import { describe, expect, it } from 'vitest';
import {
  availableContactsNote,
  campaignStatusBadge,
  newsletterStatusBadge,
  recipientsLabel,
} from './recent-display';

describe('newsletterStatusBadge', () => {
  it('shows sent and scheduled, and anything else as draft', () => {
    expect(newsletterStatusBadge('sent')).toEqual({ label: 'Sent', tone: 'success' });
    expect(newsletterStatusBadge('scheduled').label).toBe('Scheduled');
    expect(newsletterStatusBadge('draft').label).toBe('Draft');
    expect(newsletterStatusBadge('something-new').label).toBe('Draft');
  });
});

describe('campaignStatusBadge', () => {
  it('names completed and active, and the other statuses by name', () => {
    expect(campaignStatusBadge('completed').label).toBe('Completed');
    expect(campaignStatusBadge('active').tone).toBe('success');
    expect(campaignStatusBadge('stopped').label).toBe('Stopped');
    expect(campaignStatusBadge('').label).toBe('Draft');
  });
});

describe('labels', () => {
  it('counts recipients in words', () => {
    expect(recipientsLabel(1)).toBe('1 recipient');
    expect(recipientsLabel(2400)).toBe('2,400 recipients');
  });

  it('explains where available contacts come from', () => {
    expect(availableContactsNote('choose_scope')).toMatch(/Choose/);
    expect(availableContactsNote('plan_scope')).toMatch(/plan/);
    expect(availableContactsNote('all')).toMatch(/every country/);
    expect(availableContactsNote('plan_scope', { countries: ['Nigeria'], categories: ['Restaurants'] })).toBe(
      'Restaurants in Nigeria: what your plan lets you use',
    );
  });
});
