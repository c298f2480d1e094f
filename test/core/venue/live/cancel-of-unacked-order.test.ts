import { afterEach, describe, expect, it } from 'vitest';
import type { UserEvent } from '../../../../core/model/index.ts';
import { approved } from '../../../kit/approved-intents.ts';
import { capturedLog } from '../../../kit/captured-log.ts';
import { aLimitOrder } from '../../../kit/intent-builders.ts';
import { type LiveClientOnFakeVenue, liveClientOnFakeVenue } from '../../../kit/live-client-on-fake-venue.ts';
import { advanceUntil, waitFor } from '../../../kit/venue-wait.ts';
import { WIRE_ORDER } from '../../../kit/venue-wire-samples.ts';

let rig: LiveClientOnFakeVenue | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** Lets loopback I/O run a while, for a check that something did not happen. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));
const refusals = (events: readonly UserEvent[]) => events.filter((e) => e.kind === 'commandRejected');

/**
 * A venue whose order entry books an order only when it answers its place (a gateway ahead of
 * the matching engine): a cancel reaching it before that finds no order and is refused as
 * unknown (401018), and the order then goes live with nobody cancelling it.
 */
function bookingOnAck(r: LiveClientOnFakeVenue) {
  const booked = new Set<unknown>();
  let withheld: { id: string; clientOrderId: unknown } | undefined;
  r.ws.onRequest = (request) => {
    const clientOrderId = request.args.clientOrderId;
    if (request.action === 'place_order') {
      withheld = { id: request.id, clientOrderId };
      return undefined;
    }
    if (request.action === 'cancel_order' && !booked.has(clientOrderId))
      return { event: request.action, id: request.id, code: 401018, message: 'order not found' };
    return { event: request.action, id: request.id, code: 0, message: 'success', data: { clientOrderId } };
  };
  return {
    placed: () => withheld !== undefined,
    ack() {
      booked.add(withheld?.clientOrderId);
      r.ws.push({
        event: 'place_order',
        id: withheld?.id,
        code: 0,
        message: 'success',
        data: { orderId: 'o-1', clientOrderId: withheld?.clientOrderId },
      });
    },
  };
}

describe('a cancel of an order the venue has not acknowledged yet', () => {
  it('is held until the order’s ack, then sent, so the venue never refuses it as unknown', async () => {
    rig = await liveClientOnFakeVenue();
    const r = rig;
    const venue = bookingOnAck(r);
    r.live.submit(approved(aLimitOrder({ ref: 'buy-1' })));
    r.live.submit(
      approved({ kind: 'cancelOrder', ref: 'cx-1', sym: 'BINANCE_PERP_BTC_USDT', target: 'buy-1' }),
    );
    await waitFor(venue.placed, 'the order at the venue');
    await settle();
    expect(r.ws.requests.filter((q) => q.action === 'cancel_order')).toEqual([]);
    venue.ack();
    await waitFor(() => r.ws.requests.some((q) => q.action === 'cancel_order'), 'the cancel after the ack');
    await settle();
    expect(refusals(r.events)).toEqual([]);
  });

  it('holds a lockstep session’s acknowledgement of the event that made it until it is sent', async () => {
    rig = await liveClientOnFakeVenue();
    const r = rig;
    const venue = bookingOnAck(r);
    r.live.submit(approved(aLimitOrder({ ref: 'buy-1' })));
    await waitFor(venue.placed, 'the order at the venue');
    expect(r.live.commandsHeld()).toBeUndefined();
    r.live.submit(
      approved({ kind: 'cancelOrder', ref: 'cx-1', sym: 'BINANCE_PERP_BTC_USDT', target: 'buy-1' }),
    );
    const held = r.live.commandsHeld();
    expect(held).toBeDefined();
    let letGo = false;
    void held?.then(() => {
      letGo = true;
    });
    await settle();
    expect(letGo).toBe(false);
    venue.ack();
    await waitFor(() => letGo, 'the acknowledgement let go');
    await waitFor(() => r.ws.requests.some((q) => q.action === 'cancel_order'), 'the cancel at the venue');
    expect(r.live.commandsHeld()).toBeUndefined();
  });

  it('is reported not sent when the client stops before the order’s fate is known', async () => {
    rig = await liveClientOnFakeVenue();
    const r = rig;
    const venue = bookingOnAck(r);
    r.live.submit(approved(aLimitOrder({ ref: 'buy-1' })));
    r.live.submit(
      approved({ kind: 'cancelOrder', ref: 'cx-1', sym: 'BINANCE_PERP_BTC_USDT', target: 'buy-1' }),
    );
    await waitFor(venue.placed, 'the order at the venue');
    await r.live.stop();
    expect(refusals(r.events)).toMatchObject([{ ref: 'cx-1', code: -2 }]);
    expect(r.ws.requests.filter((q) => q.action === 'cancel_order')).toEqual([]);
  });
});

/**
 * A venue that books every order but never answers its place (the ack lost), whose order lookups
 * fail (a system error, which never counts as "not found": the order is looked up for ever), and
 * that refuses a cancel of an order it has not booked (401018).
 */
function ackLostLookupsFailing(r: LiveClientOnFakeVenue, booked: (ref: unknown) => boolean = () => true) {
  r.ws.onRequest = (request) => {
    if (request.action === 'place_order') return undefined;
    const clientOrderId = request.args.clientOrderId;
    if (request.action === 'cancel_order' && !booked(clientOrderId))
      return { event: request.action, id: request.id, code: 401018, message: 'order not found' };
    return { event: request.action, id: request.id, code: 0, message: 'success', data: { clientOrderId } };
  };
  r.special = (request) =>
    request.method === 'GET' && request.path === '/api/v1/trading/order'
      ? { body: { code: 40000, message: 'system error' } }
      : undefined;
}

const cancelsSent = (r: LiveClientOnFakeVenue) => r.ws.requests.filter((q) => q.action === 'cancel_order');

describe('a cancel held behind an order whose ack was lost and whose lookups fail', () => {
  it('is sent anyway once heldCommandWaitMs passed, and the log says so', async () => {
    const { logger, records } = capturedLog('warn');
    rig = await liveClientOnFakeVenue({ logger });
    const r = rig;
    ackLostLookupsFailing(r);
    r.live.submit(approved(aLimitOrder({ ref: 'buy-1' })));
    r.live.submit(
      approved({ kind: 'cancelOrder', ref: 'cx-1', sym: 'BINANCE_PERP_BTC_USDT', target: 'buy-1' }),
    );
    await advanceUntil(r.timer, () => cancelsSent(r).length > 0, 'the cancel sent', 500, 60);
    expect(r.timer.now() - 1_700_000_000_000).toBeGreaterThanOrEqual(10_000);
    await settle();
    expect(refusals(r.events)).toEqual([]);
    expect(records).toContainEqual(
      expect.objectContaining({
        ref: 'cx-1',
        unacknowledged: ['buy-1'],
        msg: expect.stringMatching(/sent without the venue's word on its orders/),
      }),
    );
  });

  it('is held again when the venue does not know the order yet, and sent once it does', async () => {
    rig = await liveClientOnFakeVenue();
    const r = rig;
    let booked = false;
    ackLostLookupsFailing(r, () => booked);
    r.live.submit(approved(aLimitOrder({ ref: 'buy-1' })));
    r.live.submit(
      approved({ kind: 'cancelOrder', ref: 'cx-1', sym: 'BINANCE_PERP_BTC_USDT', target: 'buy-1' }),
    );
    await advanceUntil(r.timer, () => cancelsSent(r).length > 0, 'the cancel sent early', 500, 60);
    await settle();
    expect(refusals(r.events)).toEqual([]);
    // The venue books the order late, and its lookups answer again.
    booked = true;
    r.special = () => undefined;
    r.holdings.orders = [{ ...WIRE_ORDER, clientOrderId: 'buy-1', orderId: 'o-1' }];
    await advanceUntil(r.timer, () => cancelsSent(r).length === 2, 'the cancel sent again', 500, 40);
    await settle();
    expect(refusals(r.events)).toEqual([]);
  });
});
