import { filter, map } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aPositionUpdate, aQuote, aTrade, BTC, ETH } from '../../kit/kernel-events.ts';

const params = z.object({ sym: z.string().default(BTC), below: z.number() });

describe('strategy plugin API', () => {
  it('hook style: a hook that returns an intent gets it through the gate to the execution port', () => {
    const dipBuyer = defineStrategy({
      name: 'dip-buyer',
      params,
      onQuote: (ctx, quote) => {
        if (quote.ask < ctx.params.below && ctx.openOrders().length === 0) {
          return ctx.order.limit({ sym: quote.sym, side: 'BUY', qty: 0.1, price: quote.ask });
        }
      },
    });
    const rig = aKernelRig([{ id: 'dip', strategy: dipBuyer, params: { below: 100 } }]);
    rig.market.next(aQuote(1, 100, 101));
    expect(rig.venue.submitted).toHaveLength(0);
    rig.market.next(aQuote(2, 98, 99));
    rig.market.next(aQuote(3, 97, 98));
    expect(rig.venue.submitted.map((c) => c.intent)).toMatchObject([
      { kind: 'placeOrder', ref: 'dip-1', sym: BTC, side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC' },
    ]);
    expect(rig.venue.submitted[0]?.strategyId).toBe('dip');
  });

  it('hook style: ctx.submit and returning an array both send every intent, in order', () => {
    const twoSided = defineStrategy({
      name: 'two-sided',
      params: z.object({}),
      onQuote: (ctx, quote) => {
        if (quote.ts !== 1) return;
        ctx.submit(ctx.order.limit({ sym: BTC, side: 'BUY', qty: 0.1, price: quote.bid }));
        return [
          ctx.order.limit({ sym: BTC, side: 'SELL', qty: 0.1, price: quote.ask }),
          ctx.order.postOnly({ sym: BTC, side: 'SELL', qty: 0.1, price: quote.ask + 1 }),
        ];
      },
    });
    const rig = aKernelRig([{ id: 'mm', strategy: twoSided }]);
    rig.market.next(aQuote(1, 100, 101));
    expect(rig.venue.submitted.map((c) => [c.intent.ref, c.intent.kind])).toEqual([
      ['mm-1', 'placeOrder'],
      ['mm-2', 'placeOrder'],
      ['mm-3', 'placeOrder'],
    ]);
  });

  it('reactive style: setup returns an Observable of intents built from ctx streams', () => {
    const dipBuyer = defineStrategy({
      name: 'dip-buyer-rx',
      params,
      setup: (ctx) =>
        ctx.quotes(ctx.params.sym).pipe(
          filter((quote) => quote.ask < ctx.params.below && ctx.openOrders().length === 0),
          map((quote) => ctx.order.limit({ sym: quote.sym, side: 'BUY', qty: 0.1, price: quote.ask })),
        ),
    });
    const rig = aKernelRig([{ id: 'rx', strategy: dipBuyer, params: { below: 100 } }]);
    rig.market.next(aQuote(1, 100, 101));
    rig.market.next(aQuote(2, 98, 99));
    rig.market.next(aQuote(3, 97, 98));
    expect(rig.venue.submitted.map((c) => [c.strategyId, c.intent.ref, c.intent.kind])).toEqual([
      ['rx', 'rx-1', 'placeOrder'],
    ]);
  });

  it('reactive style: order and fill streams carry only the strategy’s own orders', () => {
    const seen: string[] = [];
    const watcher = defineStrategy({
      name: 'watcher',
      params: z.object({ buy: z.boolean() }),
      setup: (ctx) => {
        ctx.orders().subscribe((o) => seen.push(`${ctx.id} order ${o.clientOrderId} ${o.orderState}`));
        ctx.fills().subscribe((f) => seen.push(`${ctx.id} fill ${f.clientOrderId} ${f.quantity.toFixed()}`));
        return ctx.quotes(BTC).pipe(
          filter(() => ctx.params.buy && ctx.openOrders().length === 0 && ctx.netQty(BTC).isZero()),
          map(() => ctx.order.market({ sym: BTC, side: 'BUY', qty: '0.5' })),
        );
      },
    });
    const rig = aKernelRig([
      { id: 'a', strategy: watcher, params: { buy: true } },
      { id: 'b', strategy: watcher, params: { buy: false } },
    ]);
    rig.market.next(aQuote(1, 100, 101));
    expect(seen).toEqual(['a order a-1 FILLED', 'a fill a-1 0.5']);
  });

  it('delivers trades, positions, books and mark prices to both styles', () => {
    const seen: string[] = [];
    const listener = defineStrategy({
      name: 'listener',
      params: z.object({}),
      onTrade: (ctx, trade) => {
        seen.push(
          `hook trade ${trade.price} book ${ctx.book(trade.sym)?.bids[0]?.[0]} mark ${ctx.markPrice(trade.sym)}`,
        );
      },
      onPosition: (_ctx, position) => {
        seen.push(`hook position ${position.positionQty.toFixed()}`);
      },
      setup: (ctx) => {
        ctx.trades(BTC).subscribe((t) => seen.push(`stream trade ${t.price}`));
        ctx.positions().subscribe((p) => seen.push(`stream position ${p.positionQty.toFixed()}`));
        return undefined;
      },
    });
    const { kernel } = aKernelRig([{ id: 'l', strategy: listener }]);
    kernel.push({ kind: 'book', sym: BTC, ts: 1, recvTs: 1, bids: [[99, 2]], asks: [[101, 1]] });
    kernel.push({ kind: 'markPrice', sym: BTC, ts: 2, recvTs: 2, markPrice: 100.2 });
    kernel.push(aTrade(3, 100.5));
    kernel.push(aTrade(4, 100.5, 1, ETH));
    kernel.push(aPositionUpdate(5, '0.3'));
    expect(seen).toEqual([
      'hook trade 100.5 book 99 mark 100.2',
      'stream trade 100.5',
      'hook trade 100.5 book undefined mark undefined',
      'hook position 0.3',
      'stream position 0.3',
    ]);
  });

  it('refuses parameters that do not match the schema, naming the strategy and the field', () => {
    const strategy = defineStrategy({ name: 'needs-below', params, onQuote: () => undefined });
    expect(() => aKernelRig([{ id: 's1', strategy, params: { below: 'cheap' } }])).toThrow(
      /strategy s1 \(needs-below\): .* → at params\.below/,
    );
  });

  it('refuses a strategy name that is not kebab-case', () => {
    expect(() => defineStrategy({ name: 'Not Kebab', params })).toThrow(/kebab-case/);
  });
});
