import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  exposureTime,
  RoundTripBook,
  type RoundTripTrade,
  roundTripsFromFills,
  tradeStats,
  withOwner,
} from '../../../../backtest/report/index.ts';
import { asNumber, D, type Execution, type PositionSide } from '../../../../core/model/index.ts';
import { anExecution } from '../../../kit/execution-builders.ts';
import { arbitraryFill } from '../../../kit/fill-arbitraries.ts';

/** Fills in time order (a few in the same millisecond), as the simulated venue reports them. */
const timedFills = (sides: readonly PositionSide[]) =>
  fc
    .array(fc.tuple(arbitraryFill(['AAA', 'BBB'], sides), fc.integer({ min: 0, max: 3 })), { maxLength: 60 })
    .map((drawn) => {
      let ts = 1_000;
      return drawn.map(([fill, dt], i): Execution => {
        ts += dt;
        return {
          ...anExecution({
            side: fill.side,
            quantity: fill.quantity.toFixed(),
            price: fill.price.toFixed(),
            timestamp: ts,
          }),
          sym: fill.sym,
          positionSide: fill.positionSide,
          fee: fill.fee,
          orderId: `o${i}`,
        };
      });
    });

describe('round-trip book', () => {
  it('gives a trade the gross PnL (exit - entry) x qty x contract size x direction, digit for digit and signed zero alike', () => {
    const price = fc.integer({ min: 1, max: 2_000_000 }).map((units) => D(units).div(100));
    fc.assert(
      fc.property(
        fc.constantFrom('BUY', 'SELL'),
        price,
        fc.option(price, { nil: undefined }),
        fc.integer({ min: 1, max: 5_000 }).map((units) => D(units).div(1000)),
        fc.constantFrom(undefined, '1', '1.0', '0.001', '10', '25'),
        (side, entry, exitOrSame, qty, contractSize) => {
          const exit = exitOrSame ?? entry;
          const closed: RoundTripTrade[] = [];
          const book = new RoundTripBook(
            (t) => closed.push(t),
            () => (contractSize === undefined ? undefined : D(contractSize)),
          );
          const fill = (s: 'BUY' | 'SELL', at: InstanceType<typeof D>, orderId: string): Execution => ({
            ...anExecution({ side: s, quantity: qty.toFixed(), price: at.toFixed(), timestamp: 1 }),
            orderId,
          });
          book.add(fill(side, entry, 'in'));
          book.add(fill(side === 'BUY' ? 'SELL' : 'BUY', exit, 'out'));
          const expected = exit
            .mul(qty)
            .minus(entry.mul(qty))
            .mul(D(contractSize ?? '1'))
            .mul(side === 'BUY' ? 1 : -1);
          const trade = closed[0] as RoundTripTrade;
          expect(trade.grossPnl.toFixed()).toBe(expected.toFixed());
          expect(Object.is(asNumber(trade.grossPnl), asNumber(expected))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('closes the same trades, one fill at a time, as pairing the whole list', () => {
    fc.assert(
      fc.property(timedFills(['NONE']), (fills) => {
        const closed: RoundTripTrade[] = [];
        const book = new RoundTripBook((t) => closed.push(t));
        for (const fill of fills) book.add(fill);
        book.flush();
        const whole = roundTripsFromFills(fills);
        expect(closed).toEqual(whole.closed);
        expect(book.openTrades()).toEqual(whole.open);
      }),
    );
  });

  it('books a fill with its owner given apart as the fill copied with that owner', () => {
    fc.assert(
      fc.property(
        timedFills(['NONE', 'LONG']),
        fc.array(fc.constantFrom(undefined, 'a', 'b'), { minLength: 60, maxLength: 60 }),
        (fills, owners) => {
          const apart: RoundTripTrade[] = [];
          const copied: RoundTripTrade[] = [];
          const byOwner = new RoundTripBook((t) => apart.push(t));
          const byCopy = new RoundTripBook((t) => copied.push(t));
          fills.forEach((fill, i) => {
            const owner = owners[i];
            byOwner.add(fill, owner);
            byCopy.add(owner === undefined ? fill : withOwner(fill, owner));
          });
          byOwner.flush();
          byCopy.flush();
          expect(apart).toEqual(copied);
          expect(byOwner.openTrades()).toEqual(byCopy.openTrades());
        },
      ),
    );
  });

  it("exposes a position exactly when the trades' entry-to-exit spans and the open lots do", () => {
    fc.assert(
      fc.property(timedFills(['NONE', 'LONG', 'SHORT']), fc.integer({ min: 0, max: 400 }), (fills, after) => {
        const closed: RoundTripTrade[] = [];
        const book = new RoundTripBook((t) => closed.push(t));
        for (const fill of fills) book.add(fill);
        book.flush();
        const start = 1_000;
        const end = (fills.at(-1)?.timestamp ?? start) + after - 100;
        const perTrade = [
          ...closed.map((t) => ({ from: t.entryTs, to: t.exitTs })),
          ...book.openTrades().map((t) => ({ from: t.entryTs, to: end })),
        ];
        const intervals = book.exposureIntervals(end);
        expect(exposureTime(intervals, start, end)).toBe(exposureTime(perTrade, start, end));
        expect(intervals.length).toBeLessThanOrEqual(Math.max(1, perTrade.length));
      }),
      { numRuns: 200 },
    );
  });

  it('keeps a bounded number of exposure intervals however often the position goes flat, with the same exposure', () => {
    const closed: RoundTripTrade[] = [];
    const book = new RoundTripBook((t) => closed.push(t));
    // 1000 round trips: long at 10 i + 1 ms, flat again 5 ms later.
    for (let i = 0; i < 1_000; i++) {
      for (const [side, ts] of [
        ['BUY', 10 * i + 1],
        ['SELL', 10 * i + 6],
      ] as const) {
        book.add(anExecution({ side, quantity: '1', price: '100', timestamp: ts }));
      }
    }
    book.flush();
    const end = 10_000;
    const intervals = book.exposureIntervals(end);
    expect(intervals.length).toBeLessThanOrEqual(130);
    const perTrade = closed.map((t) => ({ from: t.entryTs, to: t.exitTs }));
    expect(exposureTime(intervals, 0, end)).toBe(exposureTime(perTrade, 0, end));
    expect(exposureTime(intervals, 0, end)).toBe(0.5);
  });

  it('hands on a done trade behind a partly closed lot once 1024 trades are held, so memory stays bounded', () => {
    const closed: RoundTripTrade[] = [];
    const book = new RoundTripBook((t) => closed.push(t));
    const fill = (orderId: string, sym: string, side: 'BUY' | 'SELL', quantity: string, timestamp: number) =>
      anExecution({ orderId, sym, side, quantity, price: '100', timestamp });
    book.add(fill('in', 'AAA', 'BUY', '2', 0));
    book.add(fill('out', 'AAA', 'SELL', '1', 1));
    const roundTrip = (i: number) => {
      book.add(fill(`b${i}`, 'BBB', 'BUY', '1', 2 + 2 * i));
      book.add(fill(`s${i}`, 'BBB', 'SELL', '1', 3 + 2 * i));
    };
    // The partial close of AAA may still grow (its order may fill again), so the BBB trades wait behind it...
    for (let i = 0; i < 1023; i++) roundTrip(i);
    expect(closed).toEqual([]);
    // ...until 1025 are held: then it goes first, as it closed first, and every done trade follows.
    roundTrip(1023);
    expect(closed.length).toBe(1025);
    expect([closed[0]?.sym, closed[0]?.qty.toFixed(), closed[1]?.exitOrderId]).toEqual(['AAA', '1', 's0']);
    roundTrip(1024);
    expect(closed.length).toBe(1026);
    book.flush();
    expect(closed.length).toBe(1026);
  });
});

describe('round-trip book: coin that loan interest took out of a spot holding', () => {
  const fill = (
    side: 'BUY' | 'SELL',
    qty: string,
    price: string,
    orderId: string,
    ts: number,
    fee = '0',
  ): Execution => ({
    ...anExecution({ side, quantity: qty, price, timestamp: ts }),
    fee: D(fee),
    orderId,
  });
  const spent = (qty: string, price: string, ts: number) => ({
    sym: 'BINANCE_PERP_BTC_USDT',
    positionSide: 'NONE' as const,
    qty: D(qty),
    price: D(price),
    ts,
  });
  const shape = (t: RoundTripTrade) =>
    `${t.direction} ${t.qty.toFixed()} ${t.entryOrderId}@${t.entryPrice.toFixed()} -> ${t.exitOrderId}@${t.exitPrice.toFixed()} pnl ${t.pnl.toFixed()} fees ${t.fees.toFixed()}`;

  it('grows a short at the price given, so the buy-back of principal and interest closes it whole (hand-computed)', () => {
    const closed: RoundTripTrade[] = [];
    const book = new RoundTripBook((t) => closed.push(t));
    book.add(fill('SELL', '5', '100', 'sell', 1, '0.5'));
    for (const ts of [2, 3, 4]) book.spend(spent('0.0005', '100', ts));
    book.add(fill('BUY', '5.002', '90', 'buy', 5, '0.45018'));
    book.add(fill('SELL', '0.0005', '95', 'close', 6, '0.0000475'));
    book.flush();
    // (100 - 90) x 5.0015 = 50.015; fees 0.5 + 0.45018 x 5.0015 / 5.002 = 0.950135; then the long 0.0005 the buy left
    expect(closed.map(shape)).toEqual([
      'SHORT 5.0015 sell@100 -> buy@90 pnl 49.064865 fees 0.950135',
      'LONG 0.0005 buy@90 -> close@95 pnl 0.0024075 fees 0.0000925',
    ]);
    expect(book.openTrades()).toEqual([]);
  });

  it('shrinks the oldest long lots at their own price and keeps their entry fees with what is left', () => {
    const closed: RoundTripTrade[] = [];
    const book = new RoundTripBook((t) => closed.push(t));
    book.add(fill('BUY', '1', '100', 'a', 1, '0.1'));
    book.add(fill('BUY', '1', '110', 'b', 2, '0.11'));
    book.spend(spent('1.5', '999', 3));
    expect(
      book
        .openTrades()
        .map(
          (t) =>
            `${t.entryOrderId} ${t.qty.toFixed()}@${t.entryPrice.toFixed()} fees ${t.entryFees.toFixed()}`,
        ),
    ).toEqual(['b 0.5@110 fees 0.21']);
    book.add(fill('SELL', '0.5', '120', 'exit', 4));
    book.flush();
    expect(closed.map(shape)).toEqual(['LONG 0.5 b@110 -> exit@120 pnl 4.79 fees 0.21']);
  });

  it('opens a short with no entry order when the holding had nothing to take from', () => {
    const book = new RoundTripBook(() => undefined);
    book.spend(spent('0.001', '2000', 7));
    expect(book.openTrades()).toEqual([
      expect.objectContaining({
        direction: 'SHORT',
        entryOrderId: '',
        entryTs: 7,
        qty: D('0.001'),
        entryPrice: D('2000'),
      }),
    ]);
    expect(book.exposureIntervals(10)).toEqual([{ from: 7, to: 10 }]);
  });
});

describe('round-trip book: a trade price is its cost over its qty once the lot changed', () => {
  const fill = (
    side: 'BUY' | 'SELL',
    qty: string,
    price: string,
    orderId: string,
    ts: number,
  ): Execution => ({
    ...anExecution({ side, quantity: qty, price, timestamp: ts }),
    orderId,
  });
  // A 36-digit price: a part of a one-price lot closed or spent takes price x part of its cost
  // (a share that ends is exact), so both parts keep the price itself, which a 40-digit pro-rata
  // division used to move one digit off either way (…70002 and …69998).
  const price = '66616.4652984127745613270719084534807';
  const entries = (closed: RoundTripTrade[]) =>
    closed.map((t) => `${t.entryPrice.toFixed()} x ${t.qty.toFixed()}`);

  it('keeps the price of a lot a partial close left, its cost share exact', () => {
    const closed: RoundTripTrade[] = [];
    const book = new RoundTripBook((t) => closed.push(t));
    book.add(fill('BUY', '2.163', price, 'in', 1));
    book.add(fill('SELL', '0.903', '70000', 'part', 2));
    book.add(fill('SELL', '1.26', '70000', 'rest', 3));
    expect(entries(closed)).toEqual([`${price} x 0.903`, `${price} x 1.26`]);
  });

  it('keeps the price of a long loan interest took a part of, its cost share exact', () => {
    const closed: RoundTripTrade[] = [];
    const book = new RoundTripBook((t) => closed.push(t));
    book.add(fill('BUY', '2.163', price, 'in', 1));
    book.spend({ sym: 'BINANCE_PERP_BTC_USDT', positionSide: 'NONE', qty: D('0.903'), price: D(1), ts: 2 });
    book.add(fill('SELL', '1.26', '70000', 'out', 3));
    expect(entries(closed)).toEqual([`${price} x 1.26`]);
  });

  it('averages an entry order filled at two prices, and a short that loan interest grew at another', () => {
    const closed: RoundTripTrade[] = [];
    const book = new RoundTripBook((t) => closed.push(t));
    book.add(fill('BUY', '1', '100', 'in', 1));
    book.add(fill('BUY', '1', '102', 'in', 2));
    book.add(fill('SELL', '2', '105', 'out', 3));
    book.add(fill('SELL', '1', '100', 'short', 4));
    book.spend({ sym: 'BINANCE_PERP_BTC_USDT', positionSide: 'NONE', qty: D(1), price: D(102), ts: 5 });
    book.add(fill('BUY', '2', '90', 'cover', 6));
    expect(entries(closed)).toEqual(['101 x 2', '101 x 2']);
  });
});

describe('round-trip book: an order sliced into several of one batch', () => {
  /** A decision: one order's worth on one sym, sliced into pieces that may fill at several prices. */
  const decision = fc.record({
    sym: fc.constantFrom('AAA', 'BBB'),
    side: fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL'),
    pieces: fc.array(
      fc.record({
        qty: fc.integer({ min: 1, max: 30 }).map((units) => D(units).div(10)),
        price: fc.integer({ min: 900, max: 1_100 }).map((units) => D(units).div(10)),
        fee: fc.integer({ min: 0, max: 50 }).map((units) => D(units).div(100)),
      }),
      { minLength: 1, maxLength: 4 },
    ),
  });

  type Decision = typeof decision extends fc.Arbitrary<infer T> ? T : never;

  /** The decisions' fills, each piece its own order of the decision's batch, or all one order. */
  const fillsOf = (decisions: readonly Decision[], sliced: boolean) =>
    decisions.flatMap((d, i) =>
      d.pieces.map((piece, j) => ({
        fill: {
          ...anExecution({
            side: d.side,
            quantity: piece.qty.toFixed(),
            price: piece.price.toFixed(),
            fee: piece.fee.toFixed(),
            timestamp: 1_000 + i * 10 + j,
          }),
          sym: d.sym,
          orderId: sliced ? `d${i}.${j}` : `d${i}`,
        },
        batch: sliced ? `batch-${i}` : undefined,
      })),
    );

  const pairAll = (fills: ReturnType<typeof fillsOf>) => {
    const closed: RoundTripTrade[] = [];
    const book = new RoundTripBook((t) => closed.push(t));
    for (const { fill, batch } of fills) book.add(fill, undefined, batch);
    book.flush();
    // A sliced decision's trades name its first piece's order.
    const unsliced = (id: string): string => id.replace(/\.\d+$/, '');
    return {
      closed: closed.map((t) => ({
        ...t,
        entryOrderId: unsliced(t.entryOrderId),
        exitOrderId: unsliced(t.exitOrderId),
      })),
      open: book.openTrades().map((t) => ({ ...t, entryOrderId: unsliced(t.entryOrderId) })),
    };
  };

  it('makes the trades (and so the trade statistics) of the one order filled in those pieces', () => {
    fc.assert(
      fc.property(fc.array(decision, { maxLength: 25 }), (decisions) => {
        const whole = pairAll(fillsOf(decisions, false));
        const sliced = pairAll(fillsOf(decisions, true));
        expect(sliced).toEqual(whole);
        expect(tradeStats(sliced.closed)).toEqual(tradeStats(whole.closed));
      }),
    );
  });

  it('keeps orders of different batches apart, as orders of their own', () => {
    const closed: RoundTripTrade[] = [];
    const book = new RoundTripBook((t) => closed.push(t));
    const piece = (side: 'BUY' | 'SELL', price: string, orderId: string, timestamp: number) => ({
      ...anExecution({ side, quantity: '1', price, timestamp }),
      orderId,
    });
    book.add(piece('BUY', '100', 'a1', 1), undefined, 'rung-100');
    book.add(piece('BUY', '99', 'b1', 2), undefined, 'rung-99');
    book.add(piece('SELL', '101', 'c1', 3), undefined, 'exit');
    book.add(piece('SELL', '101', 'c2', 3), undefined, 'exit');
    expect(closed.map((t) => [t.entryOrderId, t.exitOrderId, t.qty.toFixed()])).toEqual([
      ['a1', 'c1', '1'],
      ['b1', 'c2', '1'],
    ]);
  });
});
