import { describe, expect, it } from 'vitest';

import {
  destinationAfterRegistration,
  destinationAfterSignIn,
  paymentPath,
  readAuthParams,
} from './destinations';

describe('readAuthParams', () => {
  it('opens sign in by default', () => {
    expect(readAuthParams(new URLSearchParams(''))).toEqual({
      email: '',
      plan: null,
      interval: 'monthly',
      startOnSignUp: false,
    });
  });

  it.each(['mode=signup', 'email=a%40b.co', 'plan=starter', 'plan=free'])(
    'opens sign up with %s',
    (query) => {
      expect(readAuthParams(new URLSearchParams(query)).startOnSignUp).toBe(true);
    },
  );

  it('opens sign in with mode=login even when a plan rides along', () => {
    expect(readAuthParams(new URLSearchParams('mode=login&plan=starter&interval=annual'))).toEqual({
      email: '',
      plan: 'starter',
      interval: 'annual',
      startOnSignUp: false,
    });
  });

  it('reads the email, a known plan and interval, and ignores unknown values', () => {
    expect(
      readAuthParams(new URLSearchParams('email=ada%40example.com&plan=professional&interval=annual')),
    ).toEqual({
      email: 'ada@example.com',
      plan: 'professional',
      interval: 'annual',
      startOnSignUp: true,
    });
    const odd = readAuthParams(new URLSearchParams('plan=gold&interval=weekly'));
    expect(odd.plan).toBeNull();
    expect(odd.interval).toBe('monthly');
  });
});

describe('destinations', () => {
  it('sends each role home after sign in', () => {
    expect(destinationAfterSignIn('user', null, 'monthly')).toBe('/dashboard');
    expect(destinationAfterSignIn('super_admin', null, 'monthly')).toBe('/admin-dashboard');
    expect(destinationAfterSignIn('data_entry', null, 'monthly')).toBe('/data-entry');
  });

  it('sends a subscriber with a paid plan in the URL to payment', () => {
    expect(destinationAfterSignIn('user', 'starter', 'annual')).toBe('/payment?plan=starter&interval=annual');
    expect(destinationAfterSignIn('user', 'free', 'monthly')).toBe('/dashboard');
    expect(destinationAfterSignIn('super_admin', 'starter', 'monthly')).toBe('/admin-dashboard');
  });

  it('builds the returning payment link', () => {
    expect(paymentPath('enterprise', 'monthly', true)).toBe(
      '/payment?plan=enterprise&interval=monthly&returning=true',
    );
  });

  it('sends a new account to payment only for a paid plan', () => {
    expect(destinationAfterRegistration('professional', 'monthly')).toBe(
      '/payment?plan=professional&interval=monthly',
    );
    expect(destinationAfterRegistration('free', 'monthly')).toBe('/dashboard');
    expect(destinationAfterRegistration(null, 'monthly')).toBe('/dashboard');
  });
});
