import { describe, expect, it } from 'vitest';
import { aPaperVenue, closedAfterEachTest } from '../../kit/paper-venue-builders.ts';
import { signedRest } from '../../kit/paper-venue-client.ts';

const opened = closedAfterEachTest();

describe('paper venue system status', () => {
  it('says its feed is SYNTHETIC (Keel extension) when told so, and nothing of it otherwise', async () => {
    opened.venue = await aPaperVenue({ syntheticFeed: true });
    const synthetic = await signedRest(opened.venue, 'GET', '/api/v1/system/status');
    expect(synthetic.body.data).toMatchObject({ status: 'NORMAL', syntheticFeed: true });
    await opened.venue.close();
    opened.venue = await aPaperVenue();
    const real = await signedRest(opened.venue, 'GET', '/api/v1/system/status');
    expect(real.body.data).not.toHaveProperty('syntheticFeed');
  });
});
