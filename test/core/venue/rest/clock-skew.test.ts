import { describe, expect, it } from 'vitest';
import { NONCE_OUT_OF_RANGE, VenueError } from '../../../../core/venue/index.ts';
import type { ReceivedRequest, ScriptedReply } from '../../../kit/venue-http-server.ts';
import { venueRestRig } from '../../../kit/venue-rest-rig.ts';
import { ok } from '../../../kit/venue-wire-samples.ts';

const AHEAD_MS = 180_000;
const order = { sym: 'S', side: 'BUY', orderType: 'LIMIT', orderQty: '1', limitPrice: '1' } as const;
const placed = ok({ orderId: 'o-1', clientOrderId: 'c-1' });

/** The nonce of a received request, Unix seconds. */
const nonceOf = (request: ReceivedRequest): number => Number(request.headers.nonce);

/**
 * A venue whose clock runs `AHEAD_MS` ahead of this machine's and that checks the nonce as the
 * real one does (±60 s, code 7000); `date` says whether its replies carry that clock.
 */
function aheadVenue(date: boolean): (request: ReceivedRequest) => ScriptedReply {
  return (request) => {
    const serverMs = Date.now() + AHEAD_MS;
    const stamp = { date: date ? new Date(serverMs).toUTCString() : null };
    if (Math.abs(nonceOf(request) - serverMs / 1000) > 60)
      return { ...stamp, body: { code: NONCE_OUT_OF_RANGE, message: 'nonce out of range', data: null } };
    return { ...stamp, body: placed };
  };
}

describe('venue REST client: a machine clock the venue disagrees with', () => {
  const venue = venueRestRig();

  it("sends an order refused for its nonce once more, on the venue's clock from the refusal's Date", async () => {
    venue.server.handler = aheadVenue(true);
    const sent = venue.server.requests.length;
    const reply = await venue.client.placeOrder(order);
    expect(reply.orderId).toBe('o-1');
    const [refused, accepted] = venue.server.requests.slice(sent);
    expect(venue.server.requests.length - sent).toBe(2);
    expect(accepted?.body).toBe(refused?.body);
    expect(nonceOf(accepted as ReceivedRequest) - nonceOf(refused as ReceivedRequest)).toBeGreaterThanOrEqual(
      AHEAD_MS / 1000 - 2,
    );
  });

  it('signs later requests on the learned clock at once, with no refusal', async () => {
    venue.server.handler = aheadVenue(true);
    await venue.client.placeOrder(order);
    const sent = venue.server.requests.length;
    await venue.client.placeOrder(order);
    expect(venue.server.requests.length - sent).toBe(1);
  });
});

describe('venue REST client: requests in flight when the clock is learned', () => {
  const venue = venueRestRig();

  it('sends each refused one once more, though only the first refusal moved the estimate', async () => {
    venue.server.handler = aheadVenue(true);
    const replies = await Promise.all([1, 2, 3].map(() => venue.client.placeOrder(order)));
    expect(replies.map((r) => r.orderId)).toEqual(['o-1', 'o-1', 'o-1']);
    expect(venue.server.requests).toHaveLength(6);
  });
});

describe('venue REST client: a reply that is not the venue’s', () => {
  const venue = venueRestRig({ retry: { maxRetries: 1, baseMs: 1, capMs: 1 } });

  it('does not move the estimate by the Date of an overload reply', async () => {
    let calls = 0;
    venue.server.handler = () => {
      calls++;
      if (calls === 1)
        return {
          status: 503,
          body: 'Service Unavailable',
          date: new Date(Date.now() + 3_600_000).toUTCString(),
        };
      return { body: ok([]) };
    };
    await venue.client.getOpenOrders();
    const [, retried] = venue.server.requests;
    expect(Math.abs(nonceOf(retried as ReceivedRequest) - Date.now() / 1000)).toBeLessThan(5);
  });
});

describe('venue REST client: a nonce refusal that proves nothing about the clock', () => {
  const venue = venueRestRig();

  it('is not sent again when the refusal carries no Date', async () => {
    venue.server.handler = aheadVenue(false);
    const error = await venue.client.placeOrder(order).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VenueError);
    expect((error as VenueError).code).toBe(NONCE_OUT_OF_RANGE);
    expect(venue.server.requests).toHaveLength(1);
  });

  it('is not sent a third time when the venue refuses the corrected nonce too', async () => {
    let serverAheadMs = AHEAD_MS;
    venue.server.handler = () => {
      serverAheadMs += AHEAD_MS;
      const date = new Date(Date.now() + serverAheadMs).toUTCString();
      return { date, body: { code: NONCE_OUT_OF_RANGE, message: 'nonce out of range', data: null } };
    };
    const sent = venue.server.requests.length;
    const error = await venue.client.placeOrder(order).catch((e: unknown) => e);
    expect((error as VenueError).code).toBe(NONCE_OUT_OF_RANGE);
    expect(venue.server.requests.length - sent).toBe(2);
  });
});

describe('venue REST client: a real-time venue whose replies state a bogus clock rate', () => {
  const venue = venueRestRig();

  it('has one request refused and sent once more, then none: the Date headers disprove the rate', async () => {
    venue.server.handler = (request) => {
      const serverMs = Date.now();
      const stamp = { date: new Date(serverMs).toUTCString(), headers: { 'x-keel-clock-rate': '100000' } };
      if (Math.abs(nonceOf(request) - serverMs / 1000) > 60)
        return { ...stamp, body: { code: NONCE_OUT_OF_RANGE, message: 'nonce out of range', data: null } };
      return { ...stamp, body: placed };
    };
    const sent = venue.server.requests.length;
    for (let i = 0; i < 10; i++) {
      expect((await venue.client.placeOrder(order)).orderId).toBe('o-1');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(venue.server.requests.length - sent).toBeLessThanOrEqual(11);
    expect(venue.client.serverClock.rate).toBe(1);
  });
});
