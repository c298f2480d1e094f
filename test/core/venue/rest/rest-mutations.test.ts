import { describe, expect, it } from 'vitest';
import { REST_SEQ_HEADER, RestMutationLedger } from '../../../../core/venue/index.ts';
import { venueRestRig } from '../../../kit/venue-rest-rig.ts';

describe('numbered state-changing REST requests (a lockstep paper session)', () => {
  const ledger = new RestMutationLedger('run7');
  const venue = venueRestRig({ mutations: ledger }, () => ({
    body: { code: 0, message: 'success', data: null },
  }));

  it('numbers each POST, PUT and DELETE in the order written, and no GET', async () => {
    const before = venue.server.requests.length;
    await venue.client.cancelAllAlgoOrders({ sym: 'S' });
    await venue.client.getAdlRank({}).catch(() => undefined);
    await venue.client.cancelAllAlgoOrders({});
    const headers = venue.server.requests.slice(before).map((r) => [r.method, r.headers[REST_SEQ_HEADER]]);
    expect(headers).toEqual([
      ['DELETE', 'run7:1'],
      ['GET', undefined],
      ['DELETE', 'run7:2'],
    ]);
    expect(ledger.sent).toBe(2);
  });
});

describe('numbered requests waiting on the rate limit', () => {
  const ledger = new RestMutationLedger('run8');
  const venue = venueRestRig(
    { mutations: ledger, rateLimits: { other: { limit: 1, windowMs: 300 } } },
    () => ({
      body: { code: 0, message: 'success', data: null },
    }),
  );

  it('are counted when sent, before their turn comes, so an ack sent meanwhile waits for them', async () => {
    const before = venue.server.requests.length;
    const first = venue.client.cancelAllAlgoOrders({ sym: 'A' });
    const second = venue.client.cancelAllAlgoOrders({ sym: 'B' });
    expect(ledger.sent).toBe(2);
    await Promise.all([first, second]);
    const headers = venue.server.requests.slice(before).map((r) => r.headers[REST_SEQ_HEADER]);
    expect(headers).toEqual(['run8:1', 'run8:2']);
  });
});

describe('REST requests of a session without numbering (a real venue)', () => {
  const venue = venueRestRig({}, () => ({ body: { code: 0, message: 'success', data: null } }));

  it('carry no numbering header', async () => {
    const before = venue.server.requests.length;
    await venue.client.cancelAllAlgoOrders({});
    expect(venue.server.requests[before]?.headers[REST_SEQ_HEADER]).toBeUndefined();
  });
});
