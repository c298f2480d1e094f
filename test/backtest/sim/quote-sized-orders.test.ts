import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aBar, aBook, aMarket, aQuote, aSim, BTC, fillLines } from '../../kit/sim-builders.ts';
import { aStrategyRig } from '../../kit/strategy-rig.ts';

/** A market order sized by its quote amount: qty 0 and quoteOrderQty. */
const byQuote = (ref: string, side: 'BUY' | 'SELL', quote: string, more = {}) =>
  aMarket(ref, side, '0', { quoteOrderQty: D(quote), ...more });

describe('sim venue: quote-sized market orders (quoteOrderQty, qty 0)', () => {
  it('buys as many lots as the quote amount pays for at the ask, fee on top', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 99.9, 50, 100.1, 50));
    t.send(byQuote('q', 'BUY', '1000'));
    t.sim.advanceTo(2);
    // 1000 / 100.1 = 9.99000999 -> 9.99 (lot 0.001); cost 999.999, taker fee 5 bps on top
    expect(fillLines(t)).toEqual(['q BUY 9.99@100.1 TAKER']);
    expect(t.of('execution')[0]?.execution.fee.toFixed()).toBe('0.4999995');
    const updates = t.of('order').map((e) => e.order);
    expect(updates.map((o) => [o.orderState, o.orderQty.toFixed(), o.executedQty.toFixed()])).toEqual([
      ['NEW', '9.99', '0'],
      ['FILLED', '9.99', '9.99'],
    ]);
    expect(updates.every((o) => o.quoteOrderQty?.toFixed() === '1000')).toBe(true);
  });

  it('walks the displayed levels at their own prices, then beyond the book, within the quote amount', () => {
    const t = aSim();
    t.sim.onMarket(
      aBook(
        1,
        [[99.9, 5]],
        [
          [100, 0.5],
          [101, 0.2],
        ],
      ),
    );
    t.send(byQuote('q', 'BUY', '200'));
    t.sim.advanceTo(2);
    // 0.5 x 100 = 50, 0.2 x 101 = 20.2, the rest 129.8 one tick beyond the last level: 129.8 / 101.1 -> 1.283
    expect(fillLines(t)).toEqual(['q BUY 0.5@100 TAKER', 'q BUY 0.2@101 TAKER', 'q BUY 1.283@101.1 TAKER']);
  });

  it('sells as many lots as the quote amount pays for at the bid, slippage included', () => {
    const t = aSim({ fillModel: { name: 'through', slippageTicks: 2 } });
    t.sim.onMarket(aQuote(1, 100, 50, 100.1, 50));
    t.send(byQuote('q', 'SELL', '500'));
    t.sim.advanceTo(2);
    // sells at 100 - 2 ticks = 99.8: 500 / 99.8 = 5.01002 -> 5.01
    expect(fillLines(t)).toEqual(['q SELL 5.01@99.8 TAKER']);
  });

  it('counts the contract size: a contract of 0.01 BTC at 100.1 costs 1.001', () => {
    const t = aSim({
      instruments: [anInstrument(BTC, { contractSize: D('0.01'), lotSize: D('1'), minSize: D('1') })],
    });
    t.sim.onMarket(aQuote(1, 100, 500, 100.1, 500));
    t.send(byQuote('q', 'BUY', '100'));
    t.sim.advanceTo(2);
    expect(fillLines(t)).toEqual(['q BUY 99@100.1 TAKER']);
  });

  it('refuses (400001) a quote amount that pays for less than one lot, saying so', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 99.9, 5, 100.1, 5));
    t.send(byQuote('q', 'BUY', '0.1'));
    t.sim.advanceTo(2);
    expect(t.of('execution')).toHaveLength(0);
    const order = t.of('order').at(-1)?.order;
    expect(order?.orderState).toBe('REJECTED');
    expect(order?.reason).toBe(
      '400001 bad parameters: quoteOrderQty 0.1 pays for less than one lot (0.001) of BINANCE_PERP_BTC_USDT at 100.1',
    );
  });

  it('refuses (400001) a quote amount that pays for more than maxMarketSize', () => {
    const t = aSim({ startingBalances: { USDT: D('1000000') } });
    t.sim.onMarket(aQuote(1, 99.9, 500, 100, 500));
    t.send(byQuote('q', 'BUY', '20000'));
    t.sim.advanceTo(2);
    expect(t.of('order').at(-1)?.order.reason).toBe(
      '400001 bad parameters: quoteOrderQty 20000 pays for qty 200 at 100: qty exceeds maxMarketSize 100',
    );
  });

  it('checks the margin of the qty the amount pays for (401023)', () => {
    const t = aSim({ startingBalances: { USDT: D('100') } });
    t.sim.onMarket(aQuote(1, 99.9, 500, 100, 500));
    t.send(byQuote('q', 'BUY', '5000'));
    t.sim.advanceTo(2);
    expect(t.of('order').at(-1)?.order.reason).toMatch(/^401023 /);
  });

  it('refuses a quote amount that is not positive, and one on a conditional order', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 99.9, 5, 100.1, 5));
    t.send(byQuote('z', 'BUY', '0'));
    t.send(byQuote('c', 'BUY', '100', { condition: { code: 'UT', triggerPrice: D('105') } }));
    t.sim.advanceTo(2);
    expect(t.of('order').map((e) => [e.order.clientOrderId, e.order.reason])).toEqual([
      ['z', '400001 bad parameters: quoteOrderQty must be positive'],
      ['c', '400001 bad parameters: quoteOrderQty is not taken on a conditional order'],
    ]);
  });

  it('takes a qty above zero over a quoteOrderQty sent with it', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 99.9, 5, 100.1, 5));
    t.send(aMarket('q', 'BUY', '0.5', { quoteOrderQty: D('1000') }));
    t.sim.advanceTo(2);
    expect(fillLines(t)).toEqual(['q BUY 0.5@100.1 TAKER']);
  });

  it('waits for the first price when none is known, then is sized at it', () => {
    const t = aSim();
    t.send(byQuote('q', 'BUY', '1000'));
    t.sim.advanceTo(1);
    expect(t.of('order').map((e) => [e.order.orderState, e.order.orderQty.toFixed()])).toEqual([
      ['NEW', '0'],
    ]);
    t.sim.onMarket(aQuote(2, 124.9, 50, 125, 50));
    expect(fillLines(t)).toEqual(['q BUY 8@125 TAKER']);
  });

  it('on bars: is sized at the next bar open with slippage, and refused there when it pays for less than a lot', () => {
    const t = aSim({ fillModel: { name: 'bar', slippageTicks: 1 } });
    t.sim.onMarket(aBar(60_000, 99, 101, 98, 100));
    t.send(byQuote('q', 'BUY', '1000'), byQuote('tiny', 'BUY', '0.05'));
    t.sim.onMarket(aBar(120_000, 124.9, 126, 124, 125));
    // the open 124.9 plus one tick = 125: 1000 / 125 = 8
    expect(fillLines(t)).toEqual(['q BUY 8@125 TAKER']);
    const tiny = t
      .of('order')
      .filter((e) => e.order.clientOrderId === 'tiny')
      .at(-1)?.order;
    expect([tiny?.orderState, tiny?.reason]).toEqual([
      'REJECTED',
      '400001 bad parameters: quoteOrderQty 0.05 pays for less than one lot (0.001) of BINANCE_PERP_BTC_USDT at 125',
    ]);
  });

  it('never spends more than the quote amount, nor leaves a whole lot of it unspent on one level', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2_000_000 }),
        fc.integer({ min: 5_000, max: 200_000 }),
        fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL'),
        (cents, tenths, side) => {
          const t = aSim({ startingBalances: { USDT: D('1000000000') } });
          const price = tenths / 10;
          t.sim.onMarket(aQuote(1, price, 1e9, price + 0.1, 1e9));
          const quote = D(cents).div(100);
          t.send(byQuote('q', side, quote.toFixed()));
          t.sim.advanceTo(2);
          const fill = t.of('execution')[0]?.execution;
          const at = D(side === 'BUY' ? price + 0.1 : price).toDecimalPlaces(1);
          if (fill === undefined) {
            expect(quote.lt(at.mul('0.001'))).toBe(true);
            return;
          }
          const spent = fill.quantity.mul(fill.price);
          expect(spent.lte(quote)).toBe(true);
          expect(quote.minus(spent).lt(at.mul('0.001'))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('ctx.order.market({ quoteQty }) through the risk gate and the sim', () => {
  it('buys quoteQty / ask: 1000 USDT at 1000 is 1 BTC', async () => {
    let sent = false;
    const s = defineStrategy({
      name: 'probe',
      params: z.object({}),
      onQuote: (ctx) => {
        if (sent) return;
        sent = true;
        return ctx.order.market({ sym: BTC, side: 'BUY', quoteQty: 1000 });
      },
    });
    const rig = await aStrategyRig([{ id: 's', strategy: s, params: {} }]);
    rig.push(aQuote(1000, 999.9, 10, 1000, 10));
    rig.push(aQuote(2000, 999.9, 10, 1000, 10));
    expect(rig.denials).toEqual([]);
    expect((await rig.venueQty()).toFixed()).toBe('1');
  });
});
