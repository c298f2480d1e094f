import { describe, expect, it } from 'vitest';
import { brokerClientIdOf, venueConfigSchema } from '../../../config/schema/index.ts';

const venue = { restUrl: 'https://venue.example/', apiKey: 'k', apiSecret: 's' };

describe('brokerClientId of US-equity orders', () => {
  it('is the main portfolio id when the venue section names none (the paper venue has no venue section)', () => {
    expect(brokerClientIdOf({ portfolios: { main: 'main' } })).toBe('main');
    expect(
      brokerClientIdOf({ venue: venueConfigSchema.parse(venue), portfolios: { main: 'acct-main' } }),
    ).toBe('acct-main');
  });

  it('is venue.brokerClientId when the config sets it', () => {
    const parsed = venueConfigSchema.parse({ ...venue, brokerClientId: 'C-1234' });
    expect(brokerClientIdOf({ venue: parsed, portfolios: { main: 'main' } })).toBe('C-1234');
  });

  it('refuses an empty venue.brokerClientId, which the venue would refuse on every order', () => {
    expect(venueConfigSchema.safeParse({ ...venue, brokerClientId: '' }).success).toBe(false);
  });
});
