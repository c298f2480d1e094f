import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { IntentDenied, StrategyContext } from '../../../core/kernel/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { VenueConnectivity } from '../../../core/kernel/venue-connectivity.ts';
import type { Intent, VenueStatus } from '../../../core/model/index.ts';
import { D, VENUE_ORDER_ALREADY_FINAL } from '../../../core/model/index.ts';
import { aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { anOrderUpdate, aQuote, BTC } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';

type Ctx = StrategyContext<unknown, unknown>;

const flushPromises = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

const down: VenueStatus = { stream: 'private', state: 'down', ts: 1_500, reason: 'closed with code 1006' };
const up: VenueStatus = { stream: 'private', state: 'up', ts: 2_500 };
const reconciled: VenueStatus = { stream: 'private', state: 'reconciled', ts: 2_600 };

/**
 * A kernel with a venue status feed whose strategy `s` rests a bid `s-1` at the first quote (the
 * venue acknowledges it OPEN) and, at each later quote, sends what `act` returns.
 */
function aRestingBidOnALiveVenue(act: (ctx: Ctx, quoteTs: number) => Intent | readonly Intent[] | undefined) {
  const denials: IntentDenied[] = [];
  const statuses: string[] = [];
  const status = new Subject<VenueStatus>();
  const strategy = defineStrategy({
    name: 'resting-bid',
    params: z.object({}),
    onQuote: (ctx, quote) =>
      quote.ts === 1_000
        ? ctx.order.limit({ sym: BTC, side: 'BUY', qty: 1, price: 100 })
        : act(ctx, quote.ts),
    onDenied: (_ctx, denial) => {
      denials.push(denial);
    },
    onVenueStatus: (_ctx, s) => {
      statuses.push(`${s.stream} ${s.state}`);
    },
  });
  const rig = aRecordingKernelRig([{ id: 's', strategy }], { venueStatus: status });
  rig.market.next(aQuote(1_000, 100));
  rig.port.emit(anOrderUpdate(anOrder({ clientOrderId: 's-1', orderId: 'o-1', updateAt: 1_000 })));
  const sentKinds = () => rig.port.submitted.map((c) => c.intent.kind);
  return { ...rig, status, denials, statuses, sentKinds };
}

describe('kernel: trading while the venue private stream is down or not yet reconciled', () => {
  it('denies new orders and modifies from the drop until the reconciliation after the login, and lets cancels out', () => {
    const rig = aRestingBidOnALiveVenue((ctx, ts) => {
      if (ts % 1_000 === 0) return ctx.order.modify('s-1', { price: 99 + ts / 1_000 });
      if (ts % 1_000 === 100) return ctx.order.limit({ sym: BTC, side: 'SELL', qty: 1, price: 200 });
      return ctx.order.cancel('s-1');
    });
    expect(rig.sentKinds()).toEqual(['placeOrder']);
    rig.status.next(down);
    rig.market.next(aQuote(2_000, 100));
    rig.market.next(aQuote(2_100, 100));
    rig.status.next(up);
    rig.market.next(aQuote(3_000, 100));
    expect(rig.sentKinds()).toEqual(['placeOrder']);
    expect(rig.denials.map((d) => `${d.intentKind} ${d.check}`)).toEqual([
      'modifyOrder kernel.venueDisconnected',
      'placeOrder kernel.venueDisconnected',
      'modifyOrder kernel.venueDisconnected',
    ]);
    expect(rig.denials[0]?.reason).toContain("the venue's private stream has been down since");
    expect(rig.denials[0]?.reason).toContain('closed with code 1006');
    expect(rig.denials[2]?.reason).toContain('not reconciled yet');
    rig.market.next(aQuote(3_200, 100));
    expect(rig.sentKinds()).toEqual(['placeOrder', 'cancelOrder']);
    rig.status.next(reconciled);
    rig.market.next(aQuote(4_100, 100));
    expect(rig.sentKinds()).toEqual(['placeOrder', 'cancelOrder', 'placeOrder']);
  });

  it('tells the strategies of each change of a stream once, via onVenueStatus', () => {
    const rig = aRestingBidOnALiveVenue(() => undefined);
    rig.status.next(down);
    rig.status.next(down);
    rig.status.next({ stream: 'market', state: 'down', ts: 1_600, reason: 'silent' });
    rig.status.next({ stream: 'market', state: 'up', ts: 1_700 });
    rig.status.next(up);
    rig.status.next(reconciled);
    expect(rig.statuses).toEqual([
      'private down',
      'market down',
      'market up',
      'private up',
      'private reconciled',
    ]);
    expect(rig.kernel.connectivity.privateStream).toBe('reconciled');
  });

  it('notes the first login and reconciliation before the strategies start without telling them', async () => {
    let release: () => void = () => undefined;
    const status = new Subject<VenueStatus>();
    const statuses: string[] = [];
    const strategy = defineStrategy({
      name: 'listener',
      params: z.object({}),
      onVenueStatus: (_ctx, s) => {
        statuses.push(s.state);
      },
    });
    const rig = aRecordingKernelRig([{ id: 's', strategy }], {
      venueStatus: status,
      strategiesAfter: new Promise<void>((resolve) => {
        release = resolve;
      }),
    });
    status.next({ stream: 'private', state: 'up', ts: 0 });
    expect(rig.kernel.connectivity.privateStream).toBe('up');
    status.next({ stream: 'private', state: 'reconciled', ts: 0 });
    release();
    await flushPromises();
    expect(statuses).toEqual([]);
    expect(rig.kernel.connectivity.privateStream).toBe('reconciled');
  });
});

describe('kernel: a modify or cancel the venue refuses because the order is already final', () => {
  it('looks the order up, so the strategy sees it FILLED instead of OPEN and does not repeat the modify', async () => {
    const rig = aRestingBidOnALiveVenue((ctx, ts) =>
      ts === 2_000 ? ctx.order.modify('s-1', { price: 101 }) : undefined,
    );
    rig.market.next(aQuote(2_000, 100));
    const filled = anOrder({
      clientOrderId: 's-1',
      orderId: 'o-1',
      orderState: 'FILLED',
      executedQty: D('1'),
      updateAt: 1_800,
    });
    rig.port.venueOrders.set('s-1', filled);
    rig.port.emit({
      kind: 'commandRejected',
      ts: 2_100,
      recvTs: 2_100,
      ref: 's-2',
      intentKind: 'modifyOrder',
      code: VENUE_ORDER_ALREADY_FINAL,
      message: 'the order is already final',
    });
    await flushPromises();
    expect(rig.port.lookups).toEqual([`${BTC}|s-1`]);
    expect(rig.kernel.state.orders.byRef.get('s-1')?.orderState).toBe('FILLED');
    expect(rig.denials[0]).toMatchObject({ check: 'venue.401058', source: 'venue' });
    expect(rig.denials[0]?.reason).toContain('its orders are looked up');
  });

  it('looks the order up after a cancel refused as already completed (401117), so the strategy sees it FILLED', async () => {
    const rig = aRestingBidOnALiveVenue((ctx, ts) => (ts === 2_000 ? ctx.order.cancel('s-1') : undefined));
    rig.market.next(aQuote(2_000, 100));
    const filled = anOrder({
      clientOrderId: 's-1',
      orderId: 'o-1',
      orderState: 'FILLED',
      executedQty: D('1'),
      updateAt: 1_800,
    });
    rig.port.venueOrders.set('s-1', filled);
    rig.port.emit({
      kind: 'commandRejected',
      ts: 2_100,
      recvTs: 2_100,
      ref: 's-2',
      intentKind: 'cancelOrder',
      code: 401117,
      message: 'the order is already completed, so it cannot be cancelled',
    });
    await flushPromises();
    expect(rig.port.lookups).toEqual([`${BTC}|s-1`]);
    expect(rig.kernel.state.orders.byRef.get('s-1')?.orderState).toBe('FILLED');
    expect(rig.denials[0]).toMatchObject({ check: 'venue.401117', source: 'venue' });
    expect(rig.denials[0]?.reason).toContain('its orders are looked up');
  });
});

describe("the kernel's word on a stale view", () => {
  it('says since when and why from the drop until the reconciliation after the login, and nothing before or after', () => {
    const connectivity = new VenueConnectivity();
    const seen = [connectivity.staleness()];
    for (const status of [down, up, { ...down, ts: 3_000, reason: undefined }, up, reconciled]) {
      connectivity.observe(status);
      seen.push(connectivity.staleness());
    }
    expect(seen).toEqual([
      undefined,
      "the venue's private stream has been down since 1970-01-01T00:00:01.500Z (closed with code 1006)",
      "the venue's private stream is back after an outage since 1970-01-01T00:00:01.500Z (closed with code 1006) but not reconciled yet",
      "the venue's private stream has been down since 1970-01-01T00:00:03.000Z",
      "the venue's private stream is back after an outage since 1970-01-01T00:00:03.000Z but not reconciled yet",
      undefined,
    ]);
  });

  it('names why the stream, back, is not reconciled yet once the venue adapter says so', () => {
    // The live adapter repeats `up` with a reason while the reconciliation after the login keeps
    // failing; the denials said only "not reconciled yet", the drop's reason, and not what keeps it.
    const connectivity = new VenueConnectivity();
    const failing = 'the execution catch-up has kept failing since 1970-01-01T00:00:02.600Z';
    expect(connectivity.observe(down)).toBe(true);
    expect(connectivity.observe(up)).toBe(true);
    expect(connectivity.observe({ ...up, ts: 2_700, reason: failing })).toBe(false);
    expect(connectivity.staleness()).toBe(
      "the venue's private stream is back after an outage since 1970-01-01T00:00:01.500Z (closed with code 1006) " +
        `but not reconciled yet: ${failing}`,
    );
    connectivity.observe(reconciled);
    connectivity.observe({ ...down, ts: 3_000 });
    connectivity.observe({ ...up, ts: 3_100 });
    expect(connectivity.staleness()).toBe(
      "the venue's private stream is back after an outage since 1970-01-01T00:00:03.000Z (closed with code 1006) but not reconciled yet",
    );
  });

  it('ignores the market stream', () => {
    const connectivity = new VenueConnectivity();
    connectivity.observe({ stream: 'market', state: 'down', ts: 1 });
    expect(connectivity.staleness()).toBeUndefined();
  });
});
