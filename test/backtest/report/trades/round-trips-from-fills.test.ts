import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type RoundTripTrade, roundTripsFromFills } from '../../../../backtest/report/index.ts';
import { D, type Execution, ZERO } from '../../../../core/model/index.ts';
import { anExecution } from '../../../kit/execution-builders.ts';

describe('round-trip trades from fills (FIFO per sym and positionSide)', () => {
  it('pairs a buy and a sell into one LONG trade with PnL net of both fees', () => {
    const { closed, open } = roundTripsFromFills([
      anExecution({ side: 'BUY', quantity: '1', price: '100', fee: '0.1', timestamp: 1000 }),
      anExecution({ side: 'SELL', quantity: '1', price: '110', fee: '0.11', timestamp: 4000 }),
    ]);
    expect(open).toEqual([]);
    expect(closed).toHaveLength(1);
    const t = closed[0]!;
    expect(t.direction).toBe('LONG');
    expect(t.grossPnl.toFixed()).toBe('10');
    expect(t.fees.toFixed()).toBe('0.21');
    expect(t.pnl.toFixed()).toBe('9.79');
    expect(t.returnFraction).toBeCloseTo(0.0979, 12);
    expect(t.durationMs).toBe(3000);
    expect([t.entryTs, t.exitTs]).toEqual([1000, 4000]);
  });

  it('closes the oldest lot first and splits fees pro rata when a fill closes one and a half lots', () => {
    const { closed, open } = roundTripsFromFills([
      anExecution({ side: 'BUY', quantity: '2', price: '100', fee: '0.2', timestamp: 1 }),
      anExecution({ side: 'BUY', quantity: '1', price: '103', fee: '0.1', timestamp: 2 }),
      anExecution({ side: 'SELL', quantity: '2.5', price: '110', fee: '0.5', timestamp: 3 }),
    ]);
    expect(
      closed.map((t) => [t.qty.toFixed(), t.entryPrice.toFixed(), t.fees.toFixed(), t.pnl.toFixed()]),
    ).toEqual([
      ['2', '100', '0.6', '19.4'], // gross 20; fees 0.2 entry + 0.4 (= 0.5 x 2/2.5) exit
      ['0.5', '103', '0.15', '3.35'], // gross 3.5; fees 0.05 entry + 0.1 exit
    ]);
    expect(open).toHaveLength(1);
    expect(open[0]!.qty.toFixed()).toBe('0.5');
    expect(open[0]!.entryFees.toFixed()).toBe('0.05');
  });

  it('in NET mode a buy larger than the short closes it and opens a long with the rest', () => {
    const { closed, open } = roundTripsFromFills([
      anExecution({ side: 'SELL', quantity: '1', price: '100', timestamp: 1 }),
      anExecution({ side: 'BUY', quantity: '3', price: '90', timestamp: 2 }),
    ]);
    expect(closed).toHaveLength(1);
    expect(closed[0]!.direction).toBe('SHORT');
    expect(closed[0]!.pnl.toFixed()).toBe('10');
    expect(closed[0]!.returnFraction).toBeCloseTo(0.1, 12);
    expect(open.map((o) => [o.direction, o.qty.toFixed(), o.entryPrice.toFixed()])).toEqual([
      ['LONG', '2', '90'],
    ]);
  });

  it('keeps the LONG and SHORT legs of BOTH mode apart', () => {
    const { closed, open } = roundTripsFromFills([
      anExecution({ side: 'BUY', positionSide: 'LONG', quantity: '1', price: '100', timestamp: 1 }),
      anExecution({ side: 'SELL', positionSide: 'SHORT', quantity: '1', price: '100', timestamp: 2 }),
      anExecution({ side: 'SELL', positionSide: 'LONG', quantity: '1', price: '105', timestamp: 3 }),
    ]);
    expect(closed.map((t) => [t.positionSide, t.direction, t.pnl.toFixed()])).toEqual([
      ['LONG', 'LONG', '5'],
    ]);
    expect(open.map((o) => [o.positionSide, o.direction])).toEqual([['SHORT', 'SHORT']]);
  });

  it('multiplies PnL by the contract size and nets rebates out of fees', () => {
    const { closed } = roundTripsFromFills(
      [
        anExecution({ side: 'BUY', quantity: '2', price: '50', fee: '0', rebate: '0.02', timestamp: 1 }),
        anExecution({ side: 'SELL', quantity: '2', price: '51', fee: '0.05', timestamp: 2 }),
      ],
      { contractSizeOf: (sym) => (sym === 'BINANCE_PERP_BTC_USDT' ? D('0.1') : undefined) },
    );
    expect(closed[0]!.grossPnl.toFixed()).toBe('0.2');
    expect(closed[0]!.fees.toFixed()).toBe('0.03');
    expect(closed[0]!.pnl.toFixed()).toBe('0.17');
    expect(closed[0]!.returnFraction).toBeCloseTo(0.017, 12); // 0.17 / (50 x 2 x 0.1)
  });

  it('counts an entry order filled in three pieces and an exit order filled in two as one trade', () => {
    const { closed, open } = roundTripsFromFills([
      anExecution({ orderId: 'in', side: 'BUY', quantity: '1', price: '100', fee: '0.1', timestamp: 1 }),
      anExecution({ orderId: 'in', side: 'BUY', quantity: '2', price: '101', fee: '0.2', timestamp: 2 }),
      anExecution({ orderId: 'in', side: 'BUY', quantity: '1', price: '103', fee: '0.1', timestamp: 3 }),
      anExecution({ orderId: 'out', side: 'SELL', quantity: '3', price: '110', fee: '0.33', timestamp: 5 }),
      anExecution({ orderId: 'out', side: 'SELL', quantity: '1', price: '108', fee: '0.11', timestamp: 6 }),
    ]);
    expect(open).toEqual([]);
    expect(closed).toHaveLength(1);
    const t = closed[0]!;
    // entry 100 + 202 + 103 = 405 for 4 (101.25); exit 330 + 108 = 438 (109.5); gross 33
    expect([t.qty.toFixed(), t.entryPrice.toFixed(), t.exitPrice.toFixed()]).toEqual([
      '4',
      '101.25',
      '109.5',
    ]);
    expect([t.grossPnl.toFixed(), t.fees.toFixed(), t.pnl.toFixed()]).toEqual(['33', '0.84', '32.16']);
    expect([t.entryTs, t.exitTs, t.durationMs]).toEqual([1, 6, 5]);
    expect([t.entryOrderId, t.exitOrderId]).toEqual(['in', 'out']);
    expect(t.returnFraction).toBeCloseTo(32.16 / 405, 12);
  });

  it("makes one trade per lot an exit order closes, each growing with the order's later fills", () => {
    const { closed } = roundTripsFromFills([
      anExecution({ orderId: 'a', side: 'BUY', quantity: '1', price: '100', timestamp: 1 }),
      anExecution({ orderId: 'b', side: 'BUY', quantity: '1', price: '102', timestamp: 2 }),
      anExecution({ orderId: 'c', side: 'SELL', quantity: '0.5', price: '110', timestamp: 3 }),
      anExecution({ orderId: 'c', side: 'SELL', quantity: '1.5', price: '111', timestamp: 4 }),
    ]);
    // lot a: 0.5 at 110 + 0.5 at 111 = 110.5, gross 10.5; lot b: 1 at 111, gross 9
    expect(
      closed.map((t) => [t.entryOrderId, t.exitPrice.toFixed(), t.grossPnl.toFixed(), t.exitTs]),
    ).toEqual([
      ['a', '110.5', '10.5', 4],
      ['b', '111', '9', 4],
    ]);
  });

  it("keeps one trade per exit order and lot when another order's fill on that lot comes between its fills, and keeps a partial close", () => {
    const { closed, open } = roundTripsFromFills([
      anExecution({ orderId: 'a', side: 'BUY', quantity: '3', price: '100', timestamp: 1 }),
      anExecution({ orderId: 'x', side: 'SELL', quantity: '1', price: '104', timestamp: 2 }),
      anExecution({ orderId: 'y', side: 'SELL', quantity: '1', price: '106', timestamp: 3 }),
      anExecution({ orderId: 'x', side: 'SELL', quantity: '0.5', price: '108', timestamp: 4 }),
    ]);
    // x: 1 at 104 + 0.5 at 108 = 1.5 at 105.333..., gross 8; y: 1 at 106, gross 6.
    expect(closed.map((t) => [t.exitOrderId, t.qty.toFixed(), t.grossPnl.toFixed(), t.exitTs])).toEqual([
      ['x', '1.5', '8', 4],
      ['y', '1', '6', 3],
    ]);
    expect(open.map((o) => [o.qty.toFixed(), o.entryPrice.toFixed()])).toEqual([['0.5', '100']]);
  });

  it('counts an exit order filled in two pieces once while another sym fills between them (audit: interleaved partial fills)', () => {
    const fill = (
      orderId: string,
      sym: string,
      side: 'BUY' | 'SELL',
      quantity: string,
      price: string,
      timestamp: number,
    ) => anExecution({ orderId, sym, side, quantity, price, timestamp });
    const s1 = 'BINANCE_PERP_BTC_USDT';
    const s2 = 'OKX_SPOT_ETH_USDT';
    const { closed } = roundTripsFromFills([
      fill('a1', s1, 'BUY', '1', '100', 0),
      fill('b1', s2, 'BUY', '1', '100', 0),
      fill('a2', s1, 'SELL', '0.5', '110', 5),
      fill('b2', s2, 'SELL', '0.5', '110', 5),
      fill('a2', s1, 'SELL', '0.5', '112', 6),
      fill('b2', s2, 'SELL', '0.5', '112', 6),
    ]);
    expect(
      closed.map((t) => [t.sym, t.exitOrderId, t.qty.toFixed(), t.exitPrice.toFixed(), t.pnl.toFixed()]),
    ).toEqual([
      [s1, 'a2', '1', '111', '11'],
      [s2, 'b2', '1', '111', '11'],
    ]);
  });

  it('makes no trades from no fills', () => {
    expect(roundTripsFromFills([])).toEqual({ closed: [], open: [] });
  });

  const arbitraryFills = fc.array(
    fc.record({
      sym: fc.constantFrom('BINANCE_PERP_BTC_USDT', 'OKX_SPOT_ETH_USDT'),
      side: fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL'),
      positionSide: fc.constantFrom<'NONE' | 'LONG' | 'SHORT'>('NONE', 'LONG', 'SHORT'),
      qty: fc.integer({ min: 1, max: 500 }),
      price: fc.integer({ min: 1, max: 5000 }),
      fee: fc.integer({ min: 0, max: 300 }),
    }),
    { maxLength: 40 },
  );
  const toExecutions = (rows: typeof arbitraryFills extends fc.Arbitrary<infer T> ? T : never): Execution[] =>
    rows.map((r, i) =>
      anExecution({
        sym: r.sym,
        side: r.side,
        positionSide: r.positionSide,
        quantity: String(r.qty / 100),
        price: String(r.price / 10),
        fee: String(r.fee / 100),
        timestamp: i,
      }),
    );

  it('assigns every fee to exactly one trade or open lot (fees add up exactly)', () => {
    fc.assert(
      fc.property(arbitraryFills, (rows) => {
        const fills = toExecutions(rows);
        const { closed, open } = roundTripsFromFills(fills);
        const total = fills.reduce((sum, f) => sum.plus(f.fee).minus(f.rebate), ZERO);
        const assigned = [...closed.map((t) => t.fees), ...open.map((o) => o.entryFees)].reduce(
          (a, b) => a.plus(b),
          ZERO,
        );
        expect(assigned.minus(total).abs().lt('1e-30')).toBe(true);
      }),
    );
  });

  it('leaves open exactly the net quantity of each sym and side, and closes the rest in pairs', () => {
    fc.assert(
      fc.property(arbitraryFills, (rows) => {
        const fills = toExecutions(rows);
        const { closed, open } = roundTripsFromFills(fills);
        const net = new Map<string, ReturnType<typeof D>>();
        for (const f of fills) {
          const key = `${f.sym}|${f.positionSide}`;
          net.set(key, (net.get(key) ?? ZERO).plus(f.side === 'BUY' ? f.quantity : f.quantity.neg()));
        }
        const openNet = new Map<string, ReturnType<typeof D>>();
        for (const o of open) {
          const key = `${o.sym}|${o.positionSide}`;
          openNet.set(key, (openNet.get(key) ?? ZERO).plus(o.direction === 'LONG' ? o.qty : o.qty.neg()));
        }
        for (const [key, qty] of net) expect((openNet.get(key) ?? ZERO).toFixed()).toBe(qty.toFixed());
        const traded = fills.reduce((s, f) => s.plus(f.quantity), ZERO);
        const closedQty = closed.reduce((s, t) => s.plus(t.qty), ZERO);
        const openQty = open.reduce((s, o) => s.plus(o.qty), ZERO);
        expect(closedQty.mul(2).plus(openQty).toFixed()).toBe(traded.toFixed());
        for (const t of closed) expect(t.exitTs).toBeGreaterThanOrEqual(t.entryTs);
      }),
    );
  });

  /** Fills that close every position the given fills leave open, at 50. */
  const flattening = (fills: readonly Execution[]): Execution[] => {
    const net = new Map<string, { fill: Execution; qty: ReturnType<typeof D> }>();
    for (const f of fills) {
      const key = `${f.sym}|${f.positionSide}`;
      const qty = (net.get(key)?.qty ?? ZERO).plus(f.side === 'BUY' ? f.quantity : f.quantity.neg());
      net.set(key, { fill: f, qty });
    }
    return [...net.values()]
      .filter(({ qty }) => !qty.isZero())
      .map(({ fill, qty }) =>
        anExecution({
          sym: fill.sym,
          positionSide: fill.positionSide,
          side: qty.gt(0) ? 'SELL' : 'BUY',
          quantity: qty.abs().toFixed(),
          price: '50',
          timestamp: fills.length,
        }),
      );
  };

  it('gives the same total PnL, fees and closed quantity, once flat, whether an order fills in one piece or many', () => {
    const pieces = fc.array(
      fc.tuple(
        fc.boolean(),
        arbitraryFills.map((rows) => rows[0]),
      ),
      { maxLength: 40 },
    );
    fc.assert(
      fc.property(pieces, (drawn) => {
        let order = 0;
        const rows = drawn.flatMap(([continues, row]) => (row === undefined ? [] : [{ continues, row }]));
        const separate = toExecutions(rows.map(({ row }) => row));
        const grouped = separate.map((fill, i) => {
          const previous = separate[i - 1];
          const same =
            rows[i]!.continues &&
            previous !== undefined &&
            previous.side === fill.side &&
            previous.sym === fill.sym &&
            previous.positionSide === fill.positionSide;
          if (!same) order += 1;
          return { ...fill, orderId: `g${order}` };
        });
        const one = roundTripsFromFills([...separate, ...flattening(separate)]);
        const many = roundTripsFromFills([...grouped, ...flattening(grouped)]);
        expect([one.open, many.open]).toEqual([[], []]);
        const total = (trades: readonly RoundTripTrade[], field: 'pnl' | 'fees' | 'qty') =>
          trades.reduce((sum, t) => sum.plus(t[field]), ZERO);
        for (const field of ['pnl', 'fees', 'qty'] as const) {
          expect(total(many.closed, field).minus(total(one.closed, field)).abs().lt('1e-30')).toBe(true);
        }
        expect(many.closed.length).toBeLessThanOrEqual(one.closed.length);
      }),
    );
  });

  it("gives each sym the same trades whatever another sym's fills come between its own", () => {
    const syms = ['BINANCE_PERP_BTC_USDT', 'OKX_SPOT_ETH_USDT'] as const;
    const orderRows = fc.array(
      fc.record({
        side: fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL'),
        pieces: fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 3 }),
        price: fc.integer({ min: 1, max: 5000 }),
      }),
      { maxLength: 8 },
    );
    /** One sym's fills: each drawn order fills in its pieces, one after another. */
    const fillsOf = (sym: string, rows: { side: 'BUY' | 'SELL'; pieces: number[]; price: number }[]) =>
      rows.flatMap((row, order) =>
        row.pieces.map((qty, piece) =>
          anExecution({
            orderId: `${sym}-${order}`,
            sym,
            side: row.side,
            quantity: String(qty / 100),
            price: String((row.price + piece) / 10),
            fee: String(qty / 1000),
            timestamp: 0,
          }),
        ),
      );
    fc.assert(
      fc.property(orderRows, orderRows, fc.array(fc.boolean(), { maxLength: 60 }), (rowsA, rowsB, picks) => {
        const a = fillsOf(syms[0], rowsA);
        const b = fillsOf(syms[1], rowsB);
        const merged: Execution[] = [];
        let i = 0;
        let j = 0;
        for (const pickA of picks) {
          if (pickA && i < a.length) merged.push(a[i++] as Execution);
          else if (j < b.length) merged.push(b[j++] as Execution);
        }
        merged.push(...a.slice(i), ...b.slice(j));
        const stamped = merged.map((fill, k) => ({ ...fill, timestamp: k }));
        const shape = (trades: readonly RoundTripTrade[], sym: string) =>
          trades
            .filter((t) => t.sym === sym)
            .map((t) => [
              t.entryOrderId,
              t.exitOrderId,
              t.qty.toFixed(),
              t.entryPrice.toFixed(),
              t.exitPrice.toFixed(),
              t.fees.toFixed(),
            ]);
        const together = roundTripsFromFills(stamped).closed;
        for (const sym of syms) {
          const alone = roundTripsFromFills(stamped.filter((f) => f.sym === sym)).closed;
          expect(shape(together, sym)).toEqual(shape(alone, sym));
        }
      }),
    );
  });
});

describe('round-trip trades from positions held before the first fill (a session’s adopted positions)', () => {
  const adoptedLong = {
    sym: 'BINANCE_PERP_BTC_USDT',
    positionSide: 'NONE' as const,
    direction: 'LONG' as const,
    qty: D('0.006'),
    price: D('95000'),
    ts: 500,
  };

  it('closes the adopted long with a sell of its whole quantity: one LONG trade from the adopted lot, nothing open', () => {
    const { closed, open } = roundTripsFromFills(
      [anExecution({ side: 'SELL', quantity: '0.006', price: '96000', fee: '0.5', timestamp: 2_000 })],
      { adopted: [adoptedLong] },
    );
    expect(open).toEqual([]);
    expect(
      closed.map((t) => [t.direction, t.qty.toFixed(), t.entryOrderId, t.entryTs, t.entryPrice.toFixed()]),
    ).toEqual([['LONG', '0.006', 'adopted', 500, '95000']]);
    expect(closed[0]?.grossPnl.toFixed()).toBe('6');
    expect(closed[0]?.fees.toFixed()).toBe('0.5');
    expect(closed[0]?.entryStrategyId).toBeUndefined();
  });

  it('never makes a SHORT trade of churn around an adopted long: each sell closes the oldest long, each buy opens one', () => {
    const churn = Array.from({ length: 6 }, (_, i) => [
      anExecution({ side: 'SELL', quantity: '0.001', price: '95010', timestamp: 1_000 + i * 10 }),
      anExecution({ side: 'BUY', quantity: '0.001', price: '95000', timestamp: 1_005 + i * 10 }),
    ]).flat();
    const { closed, open } = roundTripsFromFills(churn, { adopted: [adoptedLong] });
    expect(closed.map((t) => `${t.direction} ${t.qty.toFixed()} from ${t.entryOrderId}`)).toEqual(
      Array.from({ length: 6 }, () => 'LONG 0.001 from adopted'),
    );
    expect(open.map((o) => o.direction)).toEqual(Array.from({ length: 6 }, () => 'LONG'));
    expect(open.reduce((sum, o) => sum.plus(o.qty), ZERO).toFixed()).toBe('0.006');
  });

  it('closes an adopted short of BOTH mode with buys of its leg only', () => {
    const { closed, open } = roundTripsFromFills(
      [
        anExecution({ side: 'BUY', positionSide: 'LONG', quantity: '1', price: '90', timestamp: 2 }),
        anExecution({ side: 'BUY', positionSide: 'SHORT', quantity: '1', price: '90', timestamp: 3 }),
      ],
      { adopted: [{ ...adoptedLong, positionSide: 'SHORT', direction: 'SHORT', qty: D(1), price: D(100) }] },
    );
    expect(closed.map((t) => [t.positionSide, t.direction, t.pnl.toFixed(), t.entryOrderId])).toEqual([
      ['SHORT', 'SHORT', '10', 'adopted'],
    ]);
    expect(open.map((o) => [o.positionSide, o.direction, o.qty.toFixed()])).toEqual([['LONG', 'LONG', '1']]);
  });
});
