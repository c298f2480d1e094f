import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy, Kernel, virtualScheduler } from '../../../core/kernel/index.ts';
import type { MarketEvent } from '../../../core/model/index.ts';
import { D } from '../../../core/model/index.ts';
import { Portfolio } from '../../../core/portfolio/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { inMemoryVenue } from '../../kit/in-memory-venue.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aQuote, BTC } from '../../kit/kernel-events.ts';

/**
 * Quotes a bid, re-prices it once when the venue confirms it, cancels it on a timer, buys at
 * market once the bid is gone, and cancels whatever is left on stop.
 */
const lifecycle = (log: string[]) =>
  defineStrategy({
    name: 'lifecycle',
    params: z.object({ sym: z.string() }),
    state: () => ({ repriced: false }),
    onStart: (ctx) => {
      log.push(`start @${ctx.now()}`);
      ctx.setTimerAt(3_000, 'give-up');
    },
    onQuote: (ctx, quote) => {
      if (quote.ts === 1_000)
        return ctx.order.limit({ sym: ctx.params.sym, side: 'BUY', qty: '0.5', price: quote.bid - 10 });
    },
    onOrder: (ctx, order) => {
      log.push(
        `order ${order.clientOrderId} ${order.orderState} ${order.action ?? ''} @${order.limitPrice.toFixed()}`,
      );
      if (order.orderState === 'OPEN' && !ctx.state.repriced) {
        ctx.state.repriced = true;
        return ctx.order.modify(order, { price: order.limitPrice.add(5) });
      }
      if (order.orderState === 'CANCELLED')
        return ctx.order.market({ sym: order.sym, side: 'BUY', qty: '0.5' });
    },
    onTimer: (ctx) => ctx.order.cancelMany(),
    onFill: (_ctx, fill) => {
      log.push(`fill ${fill.clientOrderId} ${fill.quantity.toFixed()} @${fill.price.toFixed()}`);
    },
    onPosition: (ctx, position) => {
      log.push(`position ${position.positionQty.toFixed()} equity ${ctx.equity().toFixed()}`);
      return ctx.order.limit({ sym: position.sym, side: 'SELL', qty: '0.5', price: 2_000, reduceOnly: true });
    },
    onStop: (ctx) => {
      log.push(`stop with ${ctx.openOrders().length} open`);
      return ctx.order.cancelMany();
    },
  });

describe('kernel end to end with an in-memory venue', () => {
  it('runs a strategy through place, amend, cancel, market fill, position, portfolio equity and stop', async () => {
    // The timer at 3 000 fires before the 4 000 quote is folded, while the venue (subscribed
    // first) already prices the market order at that quote: hence the fill at 1020.5 marked at 1010.5.
    const log: string[] = [];
    const scheduler = virtualScheduler();
    const market = new Subject<MarketEvent>();
    let last = 0;
    market.subscribe((e) => {
      if (e.kind === 'quote') last = (e.bid + e.ask) / 2;
    });
    const venue = inMemoryVenue(scheduler.clock, () => last);
    const instruments = [anInstrument(BTC)];
    const portfolio = new Portfolio({
      instrument: (sym) => instruments.find((i) => i.sym === sym),
      initialCash: { USDT: D('10000') },
    });
    const kernel = new Kernel({
      instruments,
      market,
      execution: venue,
      gate: new RiskGate({ limits: { maxNotionalPerOrder: '5000' } }),
      scheduler,
      strategies: [{ id: 'life', strategy: lifecycle(log), params: { sym: BTC } }],
      portfolio,
    });
    const done = kernel.start();
    market.next(aQuote(1_000, 1_000, 1_001));
    market.next(aQuote(2_000, 1_010, 1_011));
    market.next(aQuote(4_000, 1_020, 1_021));
    market.next(aQuote(5_000, 1_030, 1_031));
    market.complete();
    await done;
    kernel.stop();

    expect(log).toEqual([
      'start @0',
      'order life-1 OPEN PLACE @990',
      'order life-1 OPEN AMEND_COMPLETED @995',
      'order life-1 CANCELLED CANCEL_COMPLETED @995',
      'order life-4 FILLED FILL @0',
      'fill life-4 0.5 @1020.5',
      'position 0.5 equity 9995',
      'order life-5 OPEN PLACE @2000',
      'stop with 1 open',
    ]);
    expect(venue.submitted.map((c) => `${c.intent.kind} ${c.intent.ref}`)).toEqual([
      'placeOrder life-1',
      'modifyOrder life-2',
      'cancelOrders life-3',
      'placeOrder life-4',
      'placeOrder life-5',
      'cancelOrders life-6',
    ]);
    expect(portfolio.position(BTC).qty.toFixed()).toBe('0.5');
    expect(kernel.state.equity().toFixed()).toBe('10005');
    expect(venue.orders.get('life-5')?.orderState).toBe('CANCELLED');
    expect(kernel.state.openOrders()).toEqual([]);
  });
});
