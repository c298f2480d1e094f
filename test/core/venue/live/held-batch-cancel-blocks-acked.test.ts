import { afterEach, describe, expect, it } from 'vitest';
import type { UserEvent } from '../../../../core/model/index.ts';
import { approved } from '../../../kit/approved-intents.ts';
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
const BTC = 'BINANCE_PERP_BTC_USDT';
const refusals = (events: readonly UserEvent[]) => events.filter((e) => e.kind === 'commandRejected');

/**
 * A venue that acknowledges every place but the second (its ack is lost: the client looks the
 * order up), and answers cancels with `cancelReply` (success by default).
 */
function secondAckLost(r: LiveClientOnFakeVenue, cancelCode: (n: number) => number = () => 0) {
  let places = 0;
  let cancels = 0;
  r.ws.onRequest = (request) => {
    if (request.action === 'place_order') {
      places++;
      if (places === 2) return undefined;
      return {
        event: request.action,
        id: request.id,
        code: 0,
        message: 'success',
        data: { orderId: `o-${places}`, clientOrderId: request.args.clientOrderId },
      };
    }
    const code = cancelCode(++cancels);
    return code === 0
      ? { event: request.action, id: request.id, code, message: 'success', data: {} }
      : { event: request.action, id: request.id, code, message: 'too many requests' };
  };
  return { places: () => places };
}

/** Places buy-1 (acknowledged) and buy-2 (ack lost), then a sweep's cancel of both. */
async function sweepOfAckedAndUnacked(r: LiveClientOnFakeVenue, venue: ReturnType<typeof secondAckLost>) {
  r.live.submit(approved(aLimitOrder({ ref: 'buy-1' })));
  await waitFor(() => r.events.some((e) => e.kind === 'order' && e.order.clientOrderId === 'buy-1'), 'ack 1');
  r.live.submit(approved(aLimitOrder({ ref: 'buy-2' })));
  await waitFor(() => venue.places() === 2, 'place 2 at the venue');
  r.live.submit(
    approved({ kind: 'cancelOrders', ref: 'keel-halt-1-1', sym: BTC, targets: ['buy-1', 'buy-2'] }),
  );
}

const batchCancels = (r: LiveClientOnFakeVenue) =>
  r.ws.requests.filter((q) => q.action === 'cancel_orders').map((q) => q.args.clientOrderIds);

/**
 * A kill switch / fault sweep sends ONE cancelOrders per strategy and sym listing all its open
 * orders (strategy-order-sweep.ts), PENDING_NEW ones included. Holding the whole batch until every
 * target's place is acknowledged kept the cancel of the strategy's acknowledged, working orders
 * off the venue while one order whose ack was lost was looked up (up to unackedGiveUpMs, 30 s).
 */
describe('a batch cancel listing an acknowledged order and an unacknowledged one', () => {
  it('cancels the acknowledged (working) order at once, before any lookup of the other', async () => {
    rig = await liveClientOnFakeVenue();
    const r = rig;
    await sweepOfAckedAndUnacked(r, secondAckLost(r));
    await settle();
    expect(batchCancels(r)).toEqual([['buy-1']]);
  });

  it('cancels the unacknowledged one once the venue’s word on it came, and holds a lockstep ack until then', async () => {
    rig = await liveClientOnFakeVenue();
    const r = rig;
    await sweepOfAckedAndUnacked(r, secondAckLost(r));
    const held = r.live.commandsHeld();
    expect(held).toBeDefined();
    let letGo = false;
    void held?.then(() => {
      letGo = true;
    });
    await settle();
    expect(letGo).toBe(false);
    // The lookup finds buy-2 on the venue.
    r.holdings.orders = [{ ...WIRE_ORDER, clientOrderId: 'buy-2', orderId: 'o-2' }];
    await advanceUntil(r.timer, () => batchCancels(r).length === 2, 'the held part sent', 500, 20);
    expect(batchCancels(r)).toEqual([['buy-1'], ['buy-2']]);
    await waitFor(() => letGo, 'the lockstep acknowledgement let go');
    expect(refusals(r.events)).toEqual([]);
  });

  it('still cancels the unacknowledged one when the venue refused the part sent at once, and reports the refusal once both parts were answered', async () => {
    rig = await liveClientOnFakeVenue();
    const r = rig;
    await sweepOfAckedAndUnacked(
      r,
      secondAckLost(r, (n) => (n === 1 ? 429 : 0)),
    );
    await waitFor(() => batchCancels(r).length === 1, 'the part sent at once');
    await settle();
    expect(refusals(r.events)).toEqual([]);
    r.holdings.orders = [{ ...WIRE_ORDER, clientOrderId: 'buy-2', orderId: 'o-2' }];
    await advanceUntil(r.timer, () => batchCancels(r).length === 2, 'the held part sent', 500, 20);
    expect(batchCancels(r)).toEqual([['buy-1'], ['buy-2']]);
    await waitFor(() => refusals(r.events).length === 1, 'the refusal');
    await settle();
    expect(refusals(r.events)).toMatchObject([
      { ref: 'keel-halt-1-1', code: 429, message: expect.stringMatching(/too many requests/) },
    ]);
  });

  it('reports one refusal when both parts are refused, with the code that has every order looked up', async () => {
    rig = await liveClientOnFakeVenue();
    const r = rig;
    await sweepOfAckedAndUnacked(
      r,
      secondAckLost(r, (n) => (n === 1 ? 429 : 401058)),
    );
    r.holdings.orders = [{ ...WIRE_ORDER, clientOrderId: 'buy-2', orderId: 'o-2' }];
    await advanceUntil(r.timer, () => batchCancels(r).length === 2, 'the held part sent', 500, 20);
    await waitFor(() => refusals(r.events).length === 1, 'the refusal');
    await settle();
    expect(refusals(r.events)).toMatchObject([
      {
        ref: 'keel-halt-1-1',
        code: 401058,
        message: expect.stringMatching(/^buy-1: .*too many requests; buy-2: .*too many requests$/),
      },
    ]);
  });
});
