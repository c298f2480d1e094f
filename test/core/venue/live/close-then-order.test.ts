import { afterEach, describe, expect, it } from 'vitest';
import type { Intent } from '../../../../core/model/index.ts';
import { approved } from '../../../kit/approved-intents.ts';
import { aMarketOrder, aSellStop } from '../../../kit/intent-builders.ts';
import { type LiveClientOnFakeVenue, liveClientOnFakeVenue } from '../../../kit/live-client-on-fake-venue.ts';
import { advanceUntil, waitFor } from '../../../kit/venue-wait.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const ETH = 'BINANCE_PERP_ETH_USDT';
const POSITION = '/api/v1/trading/position';
const ALGO = '/api/v1/algo/order';
const close: Intent = { kind: 'closePosition', ref: 'c-1', sym: BTC, positionSide: 'NONE' };

/** A promise the test settles when it lets a held reply go. */
function hold(): { held: Promise<void>; release: () => void } {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { held, release };
}

let rig: LiveClientOnFakeVenue | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const placed = (r: LiveClientOnFakeVenue) =>
  r.ws.requests.filter((q) => q.action === 'place_order').map((q) => q.args.clientOrderId);
const closes = (r: LiveClientOnFakeVenue) =>
  r.http.requests.filter((q) => q.method === 'DELETE' && q.path === POSITION);
/** Lets loopback I/O run a while, for a check that something did not happen. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

describe('a live client sending a close, then an order on its sym', () => {
  it('sends the order only once the venue answered the close (a reversal reaches the venue as returned)', async () => {
    const { held, release } = hold();
    rig = await liveClientOnFakeVenue({}, (request) =>
      request.method === 'DELETE' && request.path === POSITION
        ? { body: { code: 0, message: 'success', data: null }, heldUntil: held }
        : undefined,
    );
    const r = rig;
    r.live.submit(approved(close));
    r.live.submit(approved(aMarketOrder({ ref: 'buy-1' })));
    r.live.submit(approved(aMarketOrder({ ref: 'eth-1', sym: ETH })));
    await waitFor(() => closes(r).length === 1, 'the close at the venue');
    await waitFor(() => placed(r).includes('eth-1'), 'the order on the other sym');
    await settle();
    expect(placed(r)).toEqual(['eth-1']);
    release();
    await waitFor(() => placed(r).includes('buy-1'), 'the order held behind the close');
    expect(placed(r)).toEqual(['eth-1', 'buy-1']);
  });

  it('sends the order after a close the venue refused, the refusal reported first', async () => {
    rig = await liveClientOnFakeVenue({}, (request) =>
      request.method === 'DELETE' && request.path === POSITION
        ? { status: 400, body: { code: 401097, message: 'position qty is zero' } }
        : undefined,
    );
    const r = rig;
    r.live.submit(approved(close));
    r.live.submit(approved(aMarketOrder({ ref: 'buy-1' })));
    await waitFor(() => placed(r).includes('buy-1'), 'the order held behind the refused close');
    await waitFor(() => r.events.some((e) => e.kind === 'order'), 'the order’s ack');
    const answers = r.events.flatMap((e) =>
      e.kind === 'commandRejected'
        ? [`refused ${e.ref}`]
        : e.kind === 'order'
          ? [`order ${e.order.clientOrderId}`]
          : [],
    );
    expect(answers).toEqual(['refused c-1', 'order buy-1']);
  });

  it('sends the order once, after the lookup of a close whose reply was lost', async () => {
    rig = await liveClientOnFakeVenue({}, (request) =>
      request.method === 'DELETE' && request.path === POSITION ? { body: null, reset: true } : undefined,
    );
    const r = rig;
    r.live.submit(approved(close));
    r.live.submit(approved(aMarketOrder({ ref: 'buy-1' })));
    await waitFor(() => closes(r).length === 1, 'the close at the venue');
    await settle();
    expect(placed(r)).toEqual([]);
    await advanceUntil(
      r.timer,
      () => placed(r).includes('buy-1'),
      'the order after the close’s lookup',
      500,
      40,
    );
    await settle();
    expect(placed(r)).toEqual(['buy-1']);
    expect(r.events.some((e) => e.kind === 'commandRejected' && e.ref === 'c-1')).toBe(true);
  });

  it('reports an order still held when the client stops REJECTED, never sent, saying why', async () => {
    const { held, release } = hold();
    rig = await liveClientOnFakeVenue({}, (request) =>
      request.method === 'DELETE' && request.path === POSITION
        ? { body: { code: 0, message: 'success', data: null }, heldUntil: held }
        : undefined,
    );
    const r = rig;
    r.live.submit(approved(close));
    r.live.submit(approved(aMarketOrder({ ref: 'buy-1' })));
    await waitFor(() => closes(r).length === 1, 'the close at the venue');
    const stopped = r.live.stop(1_000);
    release();
    await stopped;
    await settle();
    expect(placed(r)).toEqual([]);
    const rejected = r.events.flatMap((e) =>
      e.kind === 'order' && e.order.clientOrderId === 'buy-1' ? [e.order] : [],
    );
    expect(rejected.map((o) => o.orderState)).toEqual(['REJECTED']);
    expect(rejected[0]?.reason).toContain(
      'not sent: the client stopped while it waited for closePosition c-1',
    );
  });
});

describe('a live client sending an order, then an algo order on its sym', () => {
  it('places the algo order once the venue acknowledged the order', async () => {
    rig = await liveClientOnFakeVenue();
    const r = rig;
    let withheld: { id: string; clientOrderId: unknown } | undefined;
    r.ws.onRequest = (request) => {
      withheld = { id: request.id, clientOrderId: request.args.clientOrderId };
      return undefined;
    };
    r.live.submit(approved(aMarketOrder({ ref: 'buy-1' })));
    r.live.submit(approved(aSellStop({ ref: 'sl-1' })));
    await waitFor(() => withheld !== undefined, 'the order at the venue');
    await settle();
    expect(r.http.requests.filter((q) => q.method === 'POST' && q.path === ALGO)).toEqual([]);
    r.ws.push({
      event: 'place_order',
      id: withheld?.id,
      code: 0,
      message: 'success',
      data: { orderId: 'o-1', clientOrderId: withheld?.clientOrderId },
    });
    await waitFor(
      () => r.http.requests.some((q) => q.method === 'POST' && q.path === ALGO),
      'the algo order after the ack',
    );
  });
});
