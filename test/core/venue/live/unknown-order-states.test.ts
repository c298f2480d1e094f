import { afterEach, describe, expect, it } from 'vitest';
import type { Intent, Order, UserEvent } from '../../../../core/model/index.ts';
import type { ApprovedIntent } from '../../../../core/risk/index.ts';
import { aLimitOrder } from '../../../kit/intent-builders.ts';
import {
  dropAndReconcile,
  type LiveClientOnFakeVenue,
  liveClientOnFakeVenue,
} from '../../../kit/live-client-on-fake-venue.ts';
import { waitFor } from '../../../kit/venue-wait.ts';
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

  it('ends a Keel IOC order the venue ended EXPIRED: the push is dropped, the reconciliation after a reconnect ends it CANCELLED and trading resumes', async () => {
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
    await waitFor(() => rig.privateWs.counters.malformed === 1, 'the push counted malformed');
    const statuses = await dropAndReconcile(rig);
    expect({ logins: rig.ws.logins, last: statuses.at(-1)?.state }).toEqual({
      logins: 2,
      last: 'reconciled',
    });
    expect(lastOrder(rig.events, 'c-ioc')).toMatchObject({
      orderState: 'CANCELLED',
      synthesized: true,
      reason: expect.stringContaining('orderState EXPIRED'),
    });
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
