import fc from 'fast-check';
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { D, type Order, type VenueStatus } from '../../core/model/index.ts';
import { marketMaker } from '../../strategies/index.ts';
import { BTC } from '../kit/kernel-events.ts';
import { anOrder } from '../kit/order-builders.ts';
import { aRestartedStrategyRig, sentLines } from '../kit/restarted-strategy-rig.ts';
import { aQuote } from '../kit/sim-builders.ts';
import { aStrategyRig, type StrategyRigOptions } from '../kit/strategy-rig.ts';

/** 0.1 BTC quotes (notional ~10 USDT at these prices), one tick of skew per 0.1 held, cap 0.2. */
const base = { sym: BTC, qty: 0.1, halfSpreadTicks: 2, skewTicksPerUnit: 10, maxPosition: 0.2 };

function aMarketMaker(params: object = {}, options: StrategyRigOptions = {}) {
  return aStrategyRig([{ id: 'mm', strategy: marketMaker, params: { ...base, ...params } }], options);
}

function priced(orders: readonly Order[], side: 'BUY' | 'SELL'): string[] {
  return orders
    .filter((o) => o.side === side)
    .map((o) => `${o.limitPrice.toFixed(1)}x${o.orderQty.toFixed()}`);
}

describe('market-maker strategy', () => {
  it('places one post-only bid and one post-only ask halfSpreadTicks around the mid', async () => {
    const rig = await aMarketMaker();
    rig.push(aQuote(1000, 100, 5, 100.2, 5)); // mid 100.1
    const places = rig.sentOf('placeOrder');
    expect(places.map((p) => `${p.side} ${p.price?.toFixed(1)} ${p.timeInForce}`)).toEqual([
      'BUY 99.9 GTX',
      'SELL 100.3 GTX',
    ]);
    const open = await rig.venueOrders();
    expect(priced(open, 'BUY')).toEqual(['99.9x0.1']);
    expect(priced(open, 'SELL')).toEqual(['100.3x0.1']);
    expect(rig.denials).toEqual([]);
    expect(rig.faults).toEqual([]);
  });

  it('leaves its quotes alone while the mid moves less than requoteTicks, and modifies them in place once it does', async () => {
    const rig = await aMarketMaker({ requoteTicks: 2 });
    rig.push(aQuote(1000, 100, 5, 100.2, 5));
    rig.push(aQuote(1001, 100.1, 5, 100.3, 5)); // wanted moved one tick
    expect(rig.sentOf('modifyOrder')).toEqual([]);
    rig.push(aQuote(1002, 100.2, 5, 100.4, 5)); // two ticks from the resting prices
    expect(rig.sentOf('modifyOrder').map((m) => m.price?.toFixed(1))).toEqual(['100.1', '100.5']);
    expect(rig.sentOf('placeOrder')).toHaveLength(2);
    const open = await rig.venueOrders();
    expect(priced(open, 'BUY')).toEqual(['100.1x0.1']);
    expect(priced(open, 'SELL')).toEqual(['100.5x0.1']);
  });

  it('accumulates inventory from its fills and skews both quotes down when long', async () => {
    const rig = await aMarketMaker();
    rig.push(aQuote(1000, 100, 5, 100.2, 5)); // bid 99.9 / ask 100.3
    rig.push(aQuote(1001, 99.8, 5, 99.9, 5)); // the ask reaches our bid: filled as maker
    expect(
      rig
        .eventsOf('execution')
        .map((e) => `${e.execution.side} ${e.execution.quantity} @ ${e.execution.price}`),
    ).toEqual(['BUY 0.1 @ 99.9']);
    expect((await rig.venueQty()).toFixed()).toBe('0.1');
    // Unskewed, mid 99.85 would give 99.6 / 100.1; long 0.1 moves both one tick down.
    const open = await rig.venueOrders();
    expect(priced(open, 'BUY')).toEqual(['99.5x0.1']);
    expect(priced(open, 'SELL')).toEqual(['100.0x0.1']);
  });

  it('skews both quotes up when short', async () => {
    const rig = await aMarketMaker();
    rig.push(aQuote(1000, 100, 5, 100.2, 5));
    rig.push(aQuote(1001, 100.3, 5, 100.4, 5)); // the bid reaches our ask at 100.3
    expect((await rig.venueQty()).toFixed()).toBe('-0.1');
    // Unskewed, mid 100.35 would give 100.1 / 100.6 (bid capped at the touch 100.3 anyway); short 0.1: one tick up.
    const open = await rig.venueOrders();
    expect(priced(open, 'BUY')).toEqual(['100.2x0.1']);
    expect(priced(open, 'SELL')).toEqual(['100.7x0.1']);
  });

  it('withdraws the bid at maxPosition and keeps only the ask', async () => {
    const rig = await aMarketMaker();
    rig.push(aQuote(1000, 100, 5, 100.2, 5)); // bid 99.9
    rig.push(aQuote(1001, 99.8, 5, 99.9, 5)); // filled: long 0.1, new bid at 99.5
    rig.push(aQuote(1002, 99.4, 5, 99.5, 5)); // filled again: long 0.2 = maxPosition
    expect((await rig.venueQty()).toFixed()).toBe('0.2');
    const placesBefore = rig.sentOf('placeOrder').length;
    rig.push(aQuote(1003, 99.4, 5, 99.6, 5));
    const open = await rig.venueOrders();
    expect(priced(open, 'BUY')).toEqual([]);
    expect(priced(open, 'SELL')).toHaveLength(1);
    expect(
      rig
        .sentOf('placeOrder')
        .slice(placesBefore)
        .filter((p) => p.side === 'BUY'),
    ).toEqual([]);
  });

  it('offers only the room left before maxPosition, so a fill never takes the position past it', async () => {
    const rig = await aMarketMaker({ qty: 0.2, maxPosition: 0.3 });
    rig.push(aQuote(1000, 100, 5, 100.2, 5));
    rig.push(aQuote(1001, 99.8, 5, 99.9, 5)); // long 0.2: room 0.1
    const open = await rig.venueOrders();
    expect(priced(open, 'BUY').map((p) => p.split('x')[1])).toEqual(['0.1']);
    expect(priced(open, 'SELL').map((p) => p.split('x')[1])).toEqual(['0.2']);
  });

  it('withdraws a side whose room left is worth less than the minimum notional, instead of being denied', async () => {
    const rig = await aMarketMaker({ qty: 0.17, maxPosition: 0.2 });
    rig.push(aQuote(1000, 100, 5, 100.2, 5));
    rig.push(aQuote(1001, 99.8, 5, 99.9, 5)); // long 0.17: room 0.03, ~3 USDT < minNotional 5
    rig.push(aQuote(1002, 99.8, 5, 100, 5));
    expect(priced(await rig.venueOrders(), 'BUY')).toEqual([]);
    expect(rig.denials).toEqual([]);
  });

  it('keeps one request in flight per side: nothing new while a placement or a modify is unanswered', async () => {
    const rig = await aMarketMaker({}, { latencyMs: 5 });
    rig.push(aQuote(1000, 100, 5, 100.2, 5)); // places 99.9 / 100.3, arriving at 1005
    rig.push(aQuote(1002, 100.1, 5, 100.3, 5)); // wants 100.0 / 100.4, but both are unanswered
    expect(rig.sentOf('placeOrder')).toHaveLength(2);
    expect(rig.sentOf('modifyOrder')).toHaveLength(0);
    rig.push(aQuote(1010, 100.1, 5, 100.3, 5)); // acknowledged: modify both
    expect(rig.sentOf('modifyOrder').map((m) => m.price?.toFixed(1))).toEqual(['100.0', '100.4']);
    rig.push(aQuote(1012, 100.2, 5, 100.4, 5)); // wants 100.1 / 100.5 while the modifies fly: wait
    expect(rig.sentOf('placeOrder')).toHaveLength(2);
    expect(rig.sentOf('modifyOrder')).toHaveLength(2);
    rig.push(aQuote(1020, 100.2, 5, 100.4, 5));
    expect(rig.sentOf('modifyOrder')).toHaveLength(4);
    rig.advance(1030);
    const open = await rig.venueOrders();
    expect(priced(open, 'BUY')).toEqual(['100.1x0.1']);
    expect(priced(open, 'SELL')).toEqual(['100.5x0.1']);
    expect(rig.sentOf('placeOrder')).toHaveLength(2);
  });

  it('cancels its quotes when stopped', async () => {
    const rig = await aMarketMaker();
    rig.push(aQuote(1000, 100, 5, 100.2, 5));
    expect(await rig.venueOrders()).toHaveLength(2);
    rig.stop();
    expect(rig.sentOf('cancelOrders')).toHaveLength(1);
    expect(await rig.venueOrders()).toEqual([]);
  });

  it('pulls its quotes while the market stream is down and quotes again on the first BBO after it is back', async () => {
    const status = new Subject<VenueStatus>();
    const rig = await aMarketMaker({}, { venueStatus: status });
    rig.push(aQuote(1000, 100, 5, 100.2, 5));
    status.next({ stream: 'market', state: 'down', ts: 1003, reason: 'went silent' });
    rig.advance(1004);
    expect(rig.sentOf('cancelOrders').map((c) => c.sym)).toEqual([BTC]);
    expect(await rig.venueOrders()).toEqual([]);
    rig.push(aQuote(1005, 101, 5, 101.2, 5)); // a BBO read before the drop, handled after it
    expect(rig.sentOf('placeOrder')).toHaveLength(2);
    status.next({ stream: 'market', state: 'up', ts: 1006 });
    rig.push(aQuote(1007, 101, 5, 101.2, 5)); // mid 101.1
    expect(
      rig
        .sentOf('placeOrder')
        .map((p) => `${p.side} ${p.price?.toFixed(1)}`)
        .slice(2),
    ).toEqual(['BUY 100.9', 'SELL 101.3']);
    expect(await rig.venueOrders()).toHaveLength(2);
    expect(rig.denials).toEqual([]);
    expect(rig.faults).toEqual([]);
  });

  it('pulls its quotes when the private stream goes down, sends nothing while it is down or not reconciled, and quotes again once it is', async () => {
    const status = new Subject<VenueStatus>();
    const rig = await aMarketMaker({}, { venueStatus: status });
    rig.push(aQuote(1000, 100, 5, 100.2, 5));
    expect(await rig.venueOrders()).toHaveLength(2);
    status.next({ stream: 'private', state: 'down', ts: 1001, reason: 'closed with code 1006' });
    rig.advance(1002);
    expect(rig.sentOf('cancelOrders').map((c) => c.sym)).toEqual([BTC]);
    expect(await rig.venueOrders()).toEqual([]);
    rig.push(aQuote(1003, 101, 5, 101.2, 5));
    status.next({ stream: 'private', state: 'up', ts: 1004 });
    rig.push(aQuote(1005, 101.5, 5, 101.7, 5));
    expect(rig.sentOf('placeOrder')).toHaveLength(2);
    expect(rig.sentOf('modifyOrder')).toEqual([]);
    status.next({ stream: 'private', state: 'reconciled', ts: 1006 });
    rig.push(aQuote(1007, 101, 5, 101.2, 5)); // mid 101.1
    expect(
      rig
        .sentOf('placeOrder')
        .map((p) => `${p.side} ${p.price?.toFixed(1)}`)
        .slice(2),
    ).toEqual(['BUY 100.9', 'SELL 101.3']);
    expect(rig.sentOf('cancelOrders')).toHaveLength(1);
    expect(rig.denials).toEqual([]);
    expect(rig.faults).toEqual([]);
  });

  it('never quotes a bid at or above its ask and never holds more than maxPosition, on any quote path', async () => {
    const step = fc.record({
      move: fc.integer({ min: -4, max: 4 }),
      spread: fc.integer({ min: 1, max: 5 }),
      bidQty: fc.double({ min: 0.01, max: 0.5, noNaN: true }),
      askQty: fc.double({ min: 0.01, max: 0.5, noNaN: true }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 25 }),
        fc.integer({ min: 0, max: 3 }),
        fc.constantFrom(0, 1, 3),
        async (path, skew, latencyMs) => {
          const rig = await aMarketMaker({ qty: 0.07, skewTicksPerUnit: skew * 10 }, { latencyMs });
          let bidTicks = 1000;
          let ts = 1000;
          for (const s of path) {
            bidTicks += s.move;
            ts += 2;
            rig.push(aQuote(ts, bidTicks / 10, s.bidQty, (bidTicks + s.spread) / 10, s.askQty));
            const open = await rig.venueOrders();
            const bids = open.filter((o) => o.side === 'BUY').map((o) => o.limitPrice.toNumber());
            const asks = open.filter((o) => o.side === 'SELL').map((o) => o.limitPrice.toNumber());
            expect(bids.length).toBeLessThanOrEqual(1);
            expect(asks.length).toBeLessThanOrEqual(1);
            if (bids.length > 0 && asks.length > 0) expect(Math.max(...bids)).toBeLessThan(Math.min(...asks));
            expect((await rig.venueQty()).abs().toNumber()).toBeLessThanOrEqual(0.2);
          }
          // The venue may refuse a requote the market overtook while it travelled (a post-only
          // price now crossing, an order filled meanwhile): the strategy hears it. A fill on the
          // old terms leaves the requote in flight, so the strategy never sends it twice (which
          // the venue would refuse as a modify changing nothing). The kernel and the gate deny nothing.
          expect(rig.denials.filter((d) => d.source !== 'venue')).toEqual([]);
          for (const refusal of rig.denials)
            expect(refusal.reason).toMatch(/post-only \(GTX\) order would take liquidity|already final/);
          expect(rig.faults).toEqual([]);
        },
      ),
      {
        numRuns: 40,
        examples: [
          // An ask being modified up and a bid moving up under it: the bid once joined the ask's old price.
          [
            [
              { move: 0, spread: 1, bidQty: 0.01, askQty: 0.01 },
              { move: 0, spread: 1, bidQty: 0.01, askQty: 0.01 },
              { move: 0, spread: 2, bidQty: 0.01, askQty: 0.01 },
              { move: -1, spread: 1, bidQty: 0.01, askQty: 0.01 },
              { move: 3, spread: 4, bidQty: 0.01, askQty: 0.01 },
              { move: 0, spread: 1, bidQty: 0.01, askQty: 0.01 },
              { move: 0, spread: 1, bidQty: 0.01, askQty: 0.01 },
            ],
            0,
            3,
          ],
        ],
      },
    );
  });

  it('rejects nonsense parameters', () => {
    const parse = (p: object) => marketMaker.params.safeParse({ ...base, ...p }).success;
    expect(parse({})).toBe(true);
    expect(parse({ qty: 0 })).toBe(false);
    expect(parse({ maxPosition: -1 })).toBe(false);
    expect(parse({ halfSpreadTicks: 0.5 })).toBe(false);
    expect(parse({ requoteTicks: 0 })).toBe(false);
    expect(parse({ skewTicksPerUnit: -1 })).toBe(false);
    expect(parse({ sym: '' })).toBe(false);
    expect(parse({ spread: 3 })).toBe(false);
  });
});

describe('market-maker strategy, restarted', () => {
  it("takes back its earlier run's quotes, one per side, cancels a surplus one, and moves them instead of quoting again", async () => {
    const quote = (n: number, side: 'BUY' | 'SELL', price: string) =>
      anOrder({
        orderId: `v${n}`,
        clientOrderId: `mm-tow6r1fr-${n}`,
        sym: BTC,
        side,
        orderQty: D('0.1'),
        limitPrice: D(price),
        timeInForce: 'GTX',
      });
    const rig = await aRestartedStrategyRig(
      { id: 'mm', strategy: marketMaker, params: { ...base, skewTicksPerUnit: 0 } },
      [quote(1, 'BUY', '99.5'), quote(2, 'SELL', '100.6'), quote(3, 'BUY', '99.4')],
    );
    rig.market.next(aQuote(1000, 100, 5, 100.2, 5)); // mid 100.1: wanted 99.9 / 100.3
    expect(sentLines(rig)).toEqual([
      'cancelOrder mm-tow6r1fr-3',
      'modifyOrder mm-tow6r1fr-1 99.9',
      'modifyOrder mm-tow6r1fr-2 100.3',
    ]);
    expect(rig.denials).toEqual([]);
    expect(rig.faults).toEqual([]);
  });
});
