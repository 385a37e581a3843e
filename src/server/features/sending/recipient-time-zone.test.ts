import { describe, expect, it } from 'vitest';
import { hasBoundaryTimeZoneLookup, resolveRecipientTimeZone } from './recipient-time-zone';
import { ZONE_LOCATIONS } from './zone-locations';

describe('resolveRecipientTimeZone', () => {
  it('answers the only zone of a one-zone country whatever the city', () => {
    expect(resolveRecipientTimeZone({ countryCode: 'NG', city: 'Kano' })).toBe('Africa/Lagos');
    expect(resolveRecipientTimeZone({ countryCode: 'ng' })).toBe('Africa/Lagos');
    expect(resolveRecipientTimeZone({ countryCode: 'KE', city: null })).toBe('Africa/Nairobi');
    expect(resolveRecipientTimeZone({ countryCode: 'ZA', city: 'Cape Town' })).toBe('Africa/Johannesburg');
    expect(resolveRecipientTimeZone({ countryCode: 'GH', city: 'Accra' })).toBe('Africa/Accra');
  });

  it('picks the zone of the city in a country with several', () => {
    expect(resolveRecipientTimeZone({ countryCode: 'CD', city: 'Kinshasa' })).toBe('Africa/Kinshasa');
    expect(resolveRecipientTimeZone({ countryCode: 'CD', city: 'Lubumbashi' })).toBe('Africa/Lubumbashi');
    expect(resolveRecipientTimeZone({ countryCode: 'ES', city: 'Las Palmas de Gran Canaria' })).toBe(
      'Atlantic/Canary',
    );
    expect(resolveRecipientTimeZone({ countryCode: 'ES', city: 'Madrid' })).toBe('Europe/Madrid');
    expect(resolveRecipientTimeZone({ countryCode: 'US', city: 'Phoenix' })).toBe('America/Phoenix');
    expect(resolveRecipientTimeZone({ countryCode: 'US', city: 'Los Angeles' })).toBe('America/Los_Angeles');
    expect(resolveRecipientTimeZone({ countryCode: 'AU', city: 'Brisbane' })).toBe('Australia/Brisbane');
  });

  it('prefers the principal city among namesakes in other zones', () => {
    // Denver is also in Iowa, North Carolina and Pennsylvania; Perth also in Tasmania.
    expect(resolveRecipientTimeZone({ countryCode: 'US', city: 'Denver' })).toBe('America/Denver');
    expect(resolveRecipientTimeZone({ countryCode: 'AU', city: 'Perth' })).toBe('Australia/Perth');
  });

  it('matches city names without accents, case or punctuation', () => {
    expect(resolveRecipientTimeZone({ countryCode: 'BR', city: 'São Paulo' })).toBe('America/Sao_Paulo');
    expect(resolveRecipientTimeZone({ countryCode: 'BR', city: '  sao   PAULO ' })).toBe('America/Sao_Paulo');
    expect(resolveRecipientTimeZone({ countryCode: 'BR', city: 'Manaus' })).toBe('America/Manaus');
  });

  it("falls back to the zone most of the country's cities are in", () => {
    expect(resolveRecipientTimeZone({ countryCode: 'US', city: 'Nowhere-in-particular' })).toBe(
      'America/New_York',
    );
    expect(resolveRecipientTimeZone({ countryCode: 'RU' })).toBe('Europe/Moscow');
    expect(resolveRecipientTimeZone({ countryCode: 'AU', city: '' })).toBe('Australia/Sydney');
  });

  it('answers null for an unknown country', () => {
    expect(resolveRecipientTimeZone({ countryCode: 'XX', city: 'Lagos' })).toBeNull();
    expect(resolveRecipientTimeZone({ countryCode: '', city: 'Lagos' })).toBeNull();
    expect(resolveRecipientTimeZone({ countryCode: null })).toBeNull();
    expect(resolveRecipientTimeZone({ countryCode: 'NGA' })).toBeNull();
  });

  it.skipIf(!hasBoundaryTimeZoneLookup())(
    'uses real zone borders when the boundary lookup is installed',
    () => {
      expect(resolveRecipientTimeZone({ countryCode: 'US', city: 'Houston' })).toBe('America/Chicago');
      expect(resolveRecipientTimeZone({ countryCode: 'CA', city: 'Calgary' })).toBe('America/Edmonton');
      expect(resolveRecipientTimeZone({ countryCode: 'NZ', city: 'Dunedin' })).toBe('Pacific/Auckland');
    },
  );

  it('every zone in the table is one this runtime knows', () => {
    for (const [, zone] of ZONE_LOCATIONS) {
      expect(() => new Intl.DateTimeFormat('en-US', { timeZone: zone }), zone).not.toThrow();
    }
  });
});
