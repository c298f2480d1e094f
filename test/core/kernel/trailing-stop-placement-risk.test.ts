import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type {
  IntentDenied,
  StrategyContext,
  TrailingStop,
  TrailingStopInput,
} from '../../../core/kernel/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D, type Intent } from '../../../core/model/index.ts';
import { RiskGate, type RiskGateConfigInput } from '../../../core/risk/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aTrade, BTC } from '../../kit/kernel-events.ts';

type Ctx = StrategyContext<unknown, unknown>;

/**
 * A strategy that, on the first trade, emits a BUY trailing stop (and what `more` adds after it);
 * records its denials, its stops' updates and the stops `ctx.trailingStops()` lists on each later
 * trade.
 */
function placer(stop: Omit<TrailingStopInput, 'sym' | 'side'>, more?: (ctx: Ctx) => Intent) {
  const denials: IntentDenied[] = [];
  const updates: TrailingStop[] = [];
  const listed: string[] = [];
  const strategy = defineStrategy({
    name: 'placer',
    params: z.object({}),
    onTrade: (ctx, trade) => {
      if (trade.ts !== 1) {
        listed.push(`${trade.ts}:${ctx.trailingStops().map((s) => `${s.ref} ${s.status}`)}`);
        return undefined;
      }
      const placed = ctx.order.trailingStop({ sym: BTC, side: 'BUY', ...stop, ref: 'stop-1' });
      return more === undefined ? placed : [placed, more(ctx)];
    },
    onDenied: (_ctx, denial) => {
      denials.push(denial);
    },
    onTrailingStop: (_ctx, update) => {
      updates.push(update);
    },
  });
  return { strategy, denials, updates, listed };
}

/** Runs {@link placer} under a gate of `config` on trades at these prices (ts 1, 2...). */
function run(
  config: RiskGateConfigInput,
  stop: Omit<TrailingStopInput, 'sym' | 'side'>,
  prices: readonly number[],
  more?: (ctx: Ctx) => Intent,
) {
  const p = placer(stop, more);
  const rig = aKernelRig([{ id: 's', strategy: p.strategy }], { gate: new RiskGate(config) });
  prices.forEach((price, i) => {
    rig.market.next(aTrade(i + 1, price));
  });
  return { ...p, rig };
}

const statuses = (updates: readonly TrailingStop[]) => updates.map((u) => `${u.updateAt}:${u.status}`);
const denied = (denials: readonly IntentDenied[]) =>
  denials.map((d) => `${d.ts} ${d.source} ${d.check} ${d.intentKind} ${d.ref}`);

describe('an emulated trailing stop and the risk gate when it is placed', () => {
  it('is denied maxNotional when its MARKET order would be over maxNotionalPerOrder at the reference price, and never held', () => {
    // The user's case: 0.06 BTC at 95 000 is 5 700 USDT, over 5 000.
    const t = run(
      { limits: { maxNotionalPerOrder: 5000 } },
      { qty: 0.06, offset: { ticks: 50 } },
      [95_000, 95_100],
    );
    expect(denied(t.denials)).toEqual(['1 risk maxNotional placeOrder stop-1']);
    expect(t.denials[0]?.reason).toBe(
      "placeOrder stop-1: notional 5700 is over the portfolio's maxNotionalPerOrder 5000",
    );
    expect(t.denials[0]?.intent).toMatchObject({ kind: 'placeOrder', orderType: 'MARKET' });
    // Not held: no PENDING, nothing listed, nothing at the venue.
    expect(t.updates).toEqual([]);
    expect(t.listed).toEqual(['2:']);
    expect(t.rig.venue.submitted).toEqual([]);
    expect(t.rig.denials).toHaveLength(1);
  });

  it("is judged under the strategy's own limits too", () => {
    const t = run(
      { strategies: { s: { maxNotionalPerOrder: 1000 } } },
      { qty: 0.02, offset: { ticks: 50 } },
      [95_000],
    );
    expect(t.denials[0]?.reason).toBe(
      "placeOrder stop-1: notional 1900 is over strategy s's maxNotionalPerOrder 1000",
    );
    expect(t.updates).toEqual([]);
  });

  it('is denied maxNotional with no reference price yet, as a market order is', () => {
    const denials: IntentDenied[] = [];
    const updates: TrailingStop[] = [];
    const strategy = defineStrategy({
      name: 'early',
      params: z.object({}),
      onStart: (ctx) => ctx.order.trailingStop({ sym: BTC, side: 'SELL', qty: 0.01, offset: { ticks: 5 } }),
      onDenied: (_ctx, denial) => {
        denials.push(denial);
      },
      onTrailingStop: (_ctx, update) => {
        updates.push(update);
      },
    });
    aKernelRig([{ id: 's', strategy }], { gate: new RiskGate({ limits: { maxNotionalPerOrder: 5000 } }) });
    expect(denials.map((d) => `${d.check}: ${d.reason}`)).toEqual([
      `maxNotional: placeOrder s-1: no reference price for ${BTC}, so its notional cannot be bounded`,
    ]);
    expect(updates).toEqual([]);
  });

  it('within the limits is held, and its order is judged again when it fires: over the limit at the price then, it is denied', () => {
    // 0.05 at 95 000 is 4 750: held. A BUY stop 1 000 above the lowest price fires at 101 000,
    // where its order is 5 050: denied when released, as before.
    const t = run(
      { limits: { maxNotionalPerOrder: 5000 } },
      { qty: 0.05, offset: { price: 1000 }, reduceOnly: false },
      [95_000, 95_500, 101_000],
    );
    expect(statuses(t.updates)).toEqual(['1:PENDING', '1:ACTIVE', '3:TRIGGERED']);
    expect(t.listed).toEqual(['2:stop-1 ACTIVE', '3:']);
    expect(denied(t.denials)).toEqual(['3 risk maxNotional placeOrder stop-1']);
    expect(t.denials[0]?.reason).toBe(
      "placeOrder stop-1: notional 5050 is over the portfolio's maxNotionalPerOrder 5000",
    );
    expect(t.denials[0]?.intent).not.toHaveProperty('trailingStop');
    expect(t.rig.venue.submitted).toEqual([]);
  });

  it('reduce-only, needs no position when placed (as an algo order), and its order is checked reduce-only when it fires', () => {
    const t = run(
      { limits: { maxNotionalPerOrder: 5000 } },
      { qty: 0.01, offset: { price: 1000 } },
      [95_000, 95_500, 101_000],
    );
    expect(statuses(t.updates)).toEqual(['1:PENDING', '1:ACTIVE', '3:TRIGGERED']);
    expect(denied(t.denials)).toEqual(['3 risk reduceOnly placeOrder stop-1']);
    expect(t.denials[0]?.reason).toMatch(/has no position to reduce/);
  });

  it('within the limits fires its order to the venue', () => {
    const t = run(
      { limits: { maxNotionalPerOrder: 5000 } },
      { qty: 0.04, offset: { price: 1000 }, reduceOnly: false },
      [95_000, 95_500, 101_000],
    );
    expect(t.denials).toEqual([]);
    expect(t.rig.venue.submitted.map((c) => `${c.intent.kind} ${c.intent.ref}`)).toEqual([
      'placeOrder stop-1',
    ]);
    expect(t.rig.venue.orders.get('stop-1')).toMatchObject({ orderState: 'FILLED', orderType: 'MARKET' });
  });

  it('takes a submit token when placed, as an algo order does, and sends nothing nor books an order', () => {
    // One submit per minute: the stop takes it, the market order after it in the same hook is denied.
    let openOrders = -1;
    const t = run(
      { limits: { submitRate: { limit: 1, intervalMs: 60_000 } } },
      { qty: 0.01, offset: { ticks: 50 }, reduceOnly: false },
      [95_000],
      (ctx) => {
        openOrders = ctx.openOrders().length;
        return ctx.order.market({ sym: BTC, side: 'BUY', qty: 0.01, ref: 'after' });
      },
    );
    expect(denied(t.denials)).toEqual(['1 risk submitRate placeOrder after']);
    expect(statuses(t.updates)).toEqual(['1:PENDING', '1:ACTIVE']);
    expect(openOrders).toBe(0);
    expect(t.rig.kernel.state.openOrders('s')).toEqual([]);
    expect(t.rig.kernel.state.ownerOf('stop-1')).toBeUndefined();
    expect(t.rig.venue.submitted).toEqual([]);
  });

  it('is denied at placement exactly when its MARKET order is over maxNotionalPerOrder at the reference price', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 50_000, max: 2_000_000 }),
        (lots, ticks) => {
          const qty = D(lots).mul('0.001');
          const price = D(ticks).mul('0.1');
          const t = run(
            { limits: { maxNotionalPerOrder: 5000 } },
            { qty, offset: { ticks: 50 }, reduceOnly: false },
            [price.toNumber()],
          );
          const over = qty.mul(price).gt(5000);
          expect(t.denials.map((d) => d.check)).toEqual(over ? ['maxNotional'] : []);
          expect(t.updates.map((u) => u.status)).toEqual(over ? [] : ['PENDING', 'ACTIVE']);
          expect(t.rig.venue.submitted).toEqual([]);
        },
      ),
      { numRuns: 60 },
    );
  });
});
