import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { D, type Order, type UserEvent } from '../../../../core/model/index.ts';
import { FiredAlgoOrders } from '../../../../core/venue/live/fired-algo-orders.ts';
import { anAlgoOrder, anAlgoOrderUpdate } from '../../../kit/algo-order-builders.ts';
import { approved } from '../../../kit/approved-intents.ts';
import { type LiveClientOnFakeVenue, liveClientOnFakeVenue } from '../../../kit/live-client-on-fake-venue.ts';
import { eventually, livePaperRigs, RIG_BTC } from '../../../kit/live-paper-rig.ts';
import { anOrder } from '../../../kit/order-builders.ts';
import { aPaperVenue, withFirstQuotes } from '../../../kit/paper-venue-builders.ts';
import { waitFor } from '../../../kit/venue-wait.ts';
import { ok, WIRE_ALGO_ORDER, WIRE_ORDER } from '../../../kit/venue-wire-samples.ts';

let rig: LiveClientOnFakeVenue | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});
const onPaper = livePaperRigs();

/** The order an algo order sent when it fired, as the venue pushes it: it names the algo order. */
const child = (algoOrderId: string, orderState: string, createAt: number) => ({
  ...WIRE_ORDER,
  orderId: `o-${algoOrderId}`,
  clientOrderId: `c-${algoOrderId}`,
  orderType: 'MARKET',
  orderState,
  algoOrderId,
  createAt,
  updateAt: createAt,
});

/** Each event as `kind id state`, algo orders by clientAlgoOrderId, orders by clientOrderId. */
const trail = (events: readonly UserEvent[]) =>
  events.flatMap((e) =>
    e.kind === 'algoOrder'
      ? [`algo ${e.algoOrder.clientAlgoOrderId} ${e.algoOrder.state}`]
      : e.kind === 'order'
        ? [`order ${e.order.clientOrderId} ${e.order.orderState}`]
        : [],
  );

describe('live execution client: an algo order that fired', () => {
  it('is TRIGGERED, before the order it sent, once that order arrives naming it', async () => {
    rig = await liveClientOnFakeVenue();
    const live = rig;
    live.special = (request) =>
      request.path === '/api/v1/algo/order'
        ? { body: ok({ ...WIRE_ALGO_ORDER, algoOrderId: 'a-7', clientAlgoOrderId: 'al-7' }) }
        : undefined;
    live.live.submit(
      approved({
        kind: 'placeAlgoOrder',
        ref: 'al-7',
        sym: 'BINANCE_PERP_BTC_USDT',
        side: 'SELL',
        algoOrderType: 'TRIGGER',
        conditionType: 'LTE',
        triggerType: 'MarkPrice',
        triggerPrice: D('55000'),
        price: D('0'),
        qty: D('0.004'),
        reduceOnly: true,
        positionSide: 'NONE',
      }),
    );
    await waitFor(() => live.events.some((e) => e.kind === 'algoOrder'), 'the algo order placed');
    const from = live.events.length;
    live.ws.push({ channel: 'Orders', data: [child('a-7', 'FILLED', 1_700_000_000_500)] });
    await waitFor(() => live.events.some((e) => e.kind === 'order'), 'the order it sent');
    expect(trail(live.events.slice(from))).toEqual(['algo al-7 TRIGGERED', 'order c-a-7 FILLED']);
    const fired = live.events.find((e) => e.kind === 'algoOrder' && e.algoOrder.state === 'TRIGGERED');
    expect(fired).toMatchObject({ algoOrder: { orderId: 'o-a-7', updateAt: 1_700_000_000_500 } });
    // Its later updates name it again: it ended once.
    live.ws.push({ channel: 'Orders', data: [child('a-7', 'FILLED', 1_700_000_000_500)] });
    await waitFor(() => live.events.filter((e) => e.kind === 'order').length === 2, 'the repeat');
    expect(live.events.filter((e) => e.kind === 'algoOrder' && e.algoOrder.state !== 'NEW')).toHaveLength(1);
  });

  it('follows the algo orders adopted at start-up, and ends one FAILED when the order it sent was refused', async () => {
    rig = await liveClientOnFakeVenue({}, (request) =>
      request.path === '/api/v1/algo/openOrders'
        ? {
            body: ok([
              { ...WIRE_ALGO_ORDER, algoOrderId: 'a-1', clientAlgoOrderId: 'ca-1' },
              { ...WIRE_ALGO_ORDER, algoOrderId: 'a-2', clientAlgoOrderId: 'ca-2', attachedOrderId: 'o-9' },
            ]),
          }
        : undefined,
    );
    const live = rig;
    const from = live.events.length;
    live.ws.push({
      channel: 'Orders',
      data: [child('a-1', 'REJECTED', 1_700_000_000_700), child('a-2', 'OPEN', 1_700_000_000_800)],
    });
    await waitFor(() => live.events.filter((e) => e.kind === 'order').length === 2, 'both orders');
    expect(trail(live.events.slice(from))).toEqual([
      'algo ca-1 FAILED',
      'order c-a-1 REJECTED',
      'algo ca-2 TRIGGERED',
      'order c-a-2 OPEN',
    ]);
  });

  it('leaves an order naming an algo order Keel never saw open as it is', async () => {
    rig = await liveClientOnFakeVenue();
    const live = rig;
    const from = live.events.length;
    live.ws.push({ channel: 'Orders', data: [child('a-unknown', 'FILLED', 1_700_000_000_500)] });
    await waitFor(() => live.events.some((e) => e.kind === 'order'), 'the order');
    expect(trail(live.events.slice(from))).toEqual(['order c-a-unknown FILLED']);
  });

  it('is TRIGGERED on a paper venue when its trigger is crossed, as the order it sent arrives', async () => {
    const venue = await withFirstQuotes(await aPaperVenue());
    const r = await onPaper(venue);
    r.live.submit(
      approved({
        kind: 'placeAlgoOrder',
        ref: 'stop-1',
        sym: RIG_BTC,
        side: 'SELL',
        algoOrderType: 'TRIGGER',
        conditionType: 'LTE',
        triggerType: 'LastPrice',
        triggerPrice: D('99.5'),
        price: D('0'),
        qty: D('1'),
        reduceOnly: false,
        positionSide: 'NONE',
      }),
    );
    await eventually(() => r.events.some((e) => e.kind === 'algoOrder'), 'the algo order placed');
    const from = r.events.length;
    // The next quote (98.9 / 99.0) crosses 99.5.
    venue.feed.step(1);
    await venue.feed.until(3);
    await eventually(() => r.events.slice(from).some((e) => e.kind === 'order'), 'the order it sent');
    expect(trail(r.events.slice(from))[0]).toBe('algo stop-1 TRIGGERED');
    expect(trail(r.events.slice(from))[1]).toMatch(/^order stop-1-trig /);
  });
});

describe('fired algo orders: an order that names its algo order before the algo order is reported', () => {
  const named = (algoOrderId: string, orderState: Order['orderState'] = 'FILLED'): UserEvent => ({
    kind: 'order',
    ts: 2_000,
    recvTs: 2_000,
    order: anOrder({
      orderId: `o-${algoOrderId}`,
      algoOrderId,
      orderState,
      createAt: 2_000,
      updateAt: 2_000,
    }),
  });

  it('ends the algo order once reported NEW: TRIGGERED with that order, FAILED when it was refused', () => {
    const fired = new FiredAlgoOrders();
    fired.observe(named('A-1'));
    fired.observe(named('A-2', 'REJECTED'));
    expect(fired.firedBefore(anAlgoOrder({ algoOrderId: 'A-1' }))).toMatchObject({
      state: 'TRIGGERED',
      orderId: 'o-A-1',
      updateAt: 2_000,
    });
    expect(fired.firedBefore(anAlgoOrder({ algoOrderId: 'A-2' }))).toMatchObject({ state: 'FAILED' });
    expect(fired.firedBefore(anAlgoOrder({ algoOrderId: 'A-3' }))).toBeUndefined();
    expect(fired.firedBefore(anAlgoOrder({ algoOrderId: 'A-1', state: 'CANCELLED' }))).toBeUndefined();
  });

  it('remembers only the last orders of the bound', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 40 }), (kept, count) => {
        const fired = new FiredAlgoOrders(kept);
        for (let i = 0; i < count; i++) fired.observe(named(`A-${i}`));
        for (let i = 0; i < count; i++) {
          const remembered = fired.firedBefore(anAlgoOrder({ algoOrderId: `A-${i}` })) !== undefined;
          expect(remembered).toBe(i >= count - kept);
        }
      }),
    );
  });

  it('does not remember an order naming an algo order reported open: that order ends it', () => {
    const fired = new FiredAlgoOrders();
    fired.observe(anAlgoOrderUpdate(anAlgoOrder({ algoOrderId: 'A-1' })));
    const order = named('A-1');
    expect(order.kind === 'order' && fired.endedBy(order.order)).toMatchObject({ state: 'TRIGGERED' });
    fired.observe(order);
    expect(fired.firedBefore(anAlgoOrder({ algoOrderId: 'A-1' }))).toBeUndefined();
  });
});
