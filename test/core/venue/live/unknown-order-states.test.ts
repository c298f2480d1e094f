import { afterEach, describe, expect, it } from 'vitest';
import type { Intent, Order, UserEvent } from '../../../../core/model/index.ts';
import type { ApprovedIntent } from '../../../../core/risk/index.ts';
import { aLimitOrder } from '../../../kit/intent-builders.ts';
import { type LiveClientOnFakeVenue, liveClientOnFakeVenue } from '../../../kit/live-client-on-fake-venue.ts';
import { advanceUntil, waitFor } from '../../../kit/venue-wait.ts';
import { ok, WIRE_ORDER } from '../../../kit/venue-wire-samples.ts';

const approved = (intent: Intent) => ({ strategyId: 's1', intent }) as ApprovedIntent;
const SYM = 'BINANCE_PERP_BTC_USDT';

const lastOrder = (events: readonly UserEvent[], clientOrderId: string): Order | undefined =>
  events
    .flatMap((e) => (e.kind === 'order' && e.order.clientOrderId === clientOrderId ? [e.order] : []))
    .at(-1);

describe('live execution client: an order in a state the public venue docs do not list', () => {
  let rig: LiveClientOnFakeVenue;
  afterEach(async () => rig?.close());

  it('looks a Keel IOC order the venue pushed EXPIRED up at once and ends it CANCELLED, without waiting for a reconnect; the push is still counted malformed', async () => {
    rig = await liveClientOnFakeVenue();
    const expired = {
      ...WIRE_ORDER,
      orderId: 'o-ioc',
      clientOrderId: 'c-ioc',
      timeInForce: 'IOC',
      orderState: 'EXPIRED',
    };
    rig.special = (r) =>
      r.path === '/api/v1/trading/order' && r.query.clientOrderId === 'c-ioc'
        ? { body: ok(expired) }
        : undefined;
    rig.live.submit(approved(aLimitOrder({ ref: 'c-ioc' })));
    await waitFor(() => lastOrder(rig.events, 'c-ioc') !== undefined, 'the ack');
    rig.ws.push({ channel: 'Orders', data: [expired] });
    await waitFor(() => lastOrder(rig.events, 'c-ioc')?.orderState === 'CANCELLED', 'the lookup');
    expect(lastOrder(rig.events, 'c-ioc')).toMatchObject({
      synthesized: true,
      reason: expect.stringContaining('orderState EXPIRED'),
    });
    expect({
      malformed: rig.privateWs.counters.malformed,
      logins: rig.ws.logins,
      lookups: rig.calls('/api/v1/trading/order').map((r) => r.query),
    }).toEqual({ malformed: 1, logins: 1, lookups: [{ clientOrderId: 'c-ioc' }] });
  }, 30_000);

  it('keeps an order pushed in an unknown state open while the venue lists it, and hands a failed lookup to a reconciliation that ends it once unlisted', async () => {
    rig = await liveClientOnFakeVenue();
    const triggered = { ...WIRE_ORDER, orderId: 'o-t', clientOrderId: 'c-t', orderState: 'TRIGGERED' };
    const lookups: string[] = [];
    rig.special = (r) => {
      if (r.path !== '/api/v1/trading/order' || r.query.clientOrderId !== 'c-t') return undefined;
      lookups.push('c-t');
      return lookups.length === 2
        ? { body: { code: 50001, message: 'service unavailable' } }
        : { body: ok(triggered) };
    };
    rig.holdings.orders = [triggered];
    rig.ws.push({
      channel: 'Orders',
      data: [{ ...WIRE_ORDER, orderId: 'o-n', clientOrderId: 'c-n' }, triggered],
    });
    await waitFor(() => lastOrder(rig.events, 'c-t') !== undefined, 'the first lookup');
    expect(lastOrder(rig.events, 'c-t')).toMatchObject({
      orderState: 'OPEN',
      reason: expect.stringContaining('orderState TRIGGERED'),
    });
    expect(lastOrder(rig.events, 'c-n')?.orderState).toBe('OPEN');
    rig.holdings.orders = [];
    const snapshots = rig.calls('/api/v1/trading/orders').length;
    rig.ws.push({ channel: 'Orders', data: [triggered] });
    await advanceUntil(
      rig.timer,
      () => lastOrder(rig.events, 'c-t')?.orderState === 'CANCELLED',
      'the reconciliation',
      500,
      100,
    );
    expect(lookups).toHaveLength(3);
    expect(rig.calls('/api/v1/trading/orders').length).toBeGreaterThan(snapshots + 1);
    expect(lastOrder(rig.events, 'c-t')).toMatchObject({ synthesized: true });
  }, 60_000);

  it('reads a lookup answer in an unknown state against the open orders: open while listed, ended once not', async () => {
    rig = await liveClientOnFakeVenue();
    const triggered = { ...WIRE_ORDER, orderId: 'o-t', clientOrderId: 'c-t', orderState: 'TRIGGERED' };
    rig.special = (r) =>
      r.path === '/api/v1/trading/order' && r.query.clientOrderId === 'c-t'
        ? { body: ok(triggered) }
        : undefined;
    rig.holdings.orders = [triggered];
    expect(await rig.live.lookupOrder(SYM, 'c-t')).toMatchObject({ orderState: 'OPEN' });
    rig.holdings.orders = [];
    expect(await rig.live.lookupOrder(SYM, 'c-t')).toMatchObject({
      orderState: 'CANCELLED',
      synthesized: true,
    });
    expect(rig.calls('/api/v1/trading/orders').at(-1)?.query).toMatchObject({ sym: SYM });
  }, 30_000);
});

describe('live execution client: an open order in an unlisted state at the start', () => {
  let rig: LiveClientOnFakeVenue | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  it('starts, and adopts the order as open rather than fail the whole snapshot', async () => {
    const byHand = { ...WIRE_ORDER, orderId: 'o-hand', clientOrderId: 'by-hand', orderState: 'PENDING_NEW' };
    // The rig's start() rejects (and this test fails) when the snapshot cannot be read.
    rig = await liveClientOnFakeVenue({}, (r) =>
      r.path === '/api/v1/trading/orders' ? { body: ok([byHand]) } : undefined,
    );
    expect(lastOrder(rig.events, 'by-hand')).toMatchObject({
      orderState: 'OPEN',
      reason: expect.stringContaining('orderState PENDING_NEW'),
    });
  }, 30_000);
});
