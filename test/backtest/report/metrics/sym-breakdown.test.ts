import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  computeMetrics,
  RoundTripBook,
  type RoundTripTrade,
  SymTally,
  symBreakdownOf,
} from '../../../../backtest/report/index.ts';
import { D, type Dec, type Execution, type PositionSide } from '../../../../core/model/index.ts';
import { anExecution } from '../../../kit/execution-builders.ts';
import { arbitraryFill } from '../../../kit/fill-arbitraries.ts';

const AAA = 'BINANCE_PERP_AAA_USDT';
const BBB = 'BINANCE_PERP_BBB_USDT';

/** Fills in time order (a few in the same millisecond) on two syms, with fees and some rebates. */
const timedFills = (sides: readonly PositionSide[]) =>
  fc
    .array(
      fc.tuple(
        arbitraryFill([AAA, BBB], sides),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 3 }),
      ),
      { maxLength: 60 },
    )
    .map((drawn) => {
      let ts = 1_000;
      return drawn.map(([fill, dt, rebateTenths], i): Execution => {
        ts += dt;
        return {
          ...anExecution({
            side: fill.side,
            quantity: fill.quantity.toFixed(),
            price: fill.price.toFixed(),
            timestamp: ts,
            rebate: rebateTenths === 3 ? '0.1' : '0',
          }),
          sym: fill.sym,
          positionSide: fill.positionSide,
          fee: fill.fee,
          orderId: `o${i}`,
        };
      });
    });

/** The fills paired into trades by the run's own book, with its tallies, as a backtest does. */
function asARun(fills: readonly Execution[], end: number) {
  const closed: RoundTripTrade[] = [];
  const tally = new SymTally();
  const book = new RoundTripBook((trade) => {
    closed.push(trade);
    tally.addTrade(trade);
  });
  for (const fill of fills) {
    book.add(fill);
    tally.addFill(fill);
  }
  book.flush();
  return { closed, open: book.openTrades(), tally, book, end };
}

const sum = (values: readonly Dec[]): Dec => values.reduce((a, b) => a.plus(b), D(0));

describe('per-sym breakdown', () => {
  it('gives each sym its trades, win rate, net PnL, fees, return contribution and exposure (hand-computed)', () => {
    const fill = (sym: string, side: 'BUY' | 'SELL', price: string, timestamp: number, fee: string) => ({
      ...anExecution({ side, quantity: '1', price, timestamp, fee }),
      sym,
    });
    // AAA: long 100 -> 110 (fees 1 + 1: pnl +8), long 110 -> 105 (fees 1 + 1: pnl -7), t 0-10 and 20-30.
    // BBB: short 50 -> 40 (fees 0.5 + 0.5: pnl +9), t 10-20; then a long opened at t 35, still open at 40.
    const fills = [
      fill(AAA, 'BUY', '100', 0, '1'),
      fill(AAA, 'SELL', '110', 10, '1'),
      fill(BBB, 'SELL', '50', 10, '0.5'),
      fill(BBB, 'BUY', '40', 20, '0.5'),
      fill(AAA, 'BUY', '110', 20, '1'),
      fill(AAA, 'SELL', '105', 30, '1'),
      fill(BBB, 'BUY', '45', 35, '0.25'),
    ];
    const run = asARun(fills, 40);
    const breakdown = symBreakdownOf({
      trades: run.closed,
      openTrades: run.open,
      fills,
      start: 0,
      end: 40,
      equityStart: D(1_000),
    });
    expect(
      breakdown.syms.map((row) => ({ ...row, netPnl: row.netPnl.toFixed(), fees: row.fees.toFixed() })),
    ).toEqual([
      // +8 - 7 = 1 of 1 000 = 0.1 %; open 0-10 and 20-30 of 40 ms = 50 %.
      {
        sym: AAA,
        trades: 2,
        winRate: 0.5,
        netPnl: '1',
        fees: '4',
        returnContribution: 0.001,
        exposureTime: 0.5,
      },
      // +9 of 1 000 = 0.9 %; fees 0.5 + 0.5 + 0.25 (the open long's entry); open 10-20 and 35-40 = 37.5 %.
      {
        sym: BBB,
        trades: 1,
        winRate: 1,
        netPnl: '9',
        fees: '1.25',
        returnContribution: 0.009,
        exposureTime: 0.375,
      },
    ]);
    const { total } = breakdown;
    expect({ ...total, netPnl: total.netPnl.toFixed(), fees: total.fees.toFixed() }).toEqual({
      trades: 3,
      winRate: 2 / 3,
      netPnl: '10',
      fees: '5.25',
      returnContribution: 0.01,
      // Some position open 0-30 and 35-40: 35 of 40 ms.
      exposureTime: 0.875,
    });
  });

  it('adds up: the syms sum to the total, which is the run metrics, and the run tally agrees with the files', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<readonly PositionSide[]>(['NONE'], ['LONG', 'SHORT']),
        fc.integer({ min: 1, max: 1_000_000 }),
        (sides, startCents) =>
          fc.assert(
            fc.property(timedFills(sides), (fills) => {
              const end = (fills[fills.length - 1]?.timestamp ?? 1_000) + 5;
              const run = asARun(fills, end);
              const equityStart = D(startCents).div(100);
              const span = { start: 1_000, end, equityStart };
              const fromFiles = symBreakdownOf({ trades: run.closed, openTrades: run.open, fills, ...span });
              const { syms, total } = fromFiles;
              expect(syms.reduce((n, row) => n + row.trades, 0)).toBe(total.trades);
              expect(sum(syms.map((row) => row.netPnl)).eq(total.netPnl)).toBe(true);
              expect(sum(syms.map((row) => row.fees)).eq(total.fees)).toBe(true);
              const contributions = syms.reduce((n, row) => n + (row.returnContribution ?? 0), 0);
              expect(Math.abs(contributions - (total.returnContribution ?? 0))).toBeLessThanOrEqual(
                1e-15 * (1 + syms.reduce((n, row) => n + Math.abs(row.returnContribution ?? 0), 0)),
              );
              expect(total.netPnl.eq(sum(run.closed.map((t) => t.pnl)))).toBe(true);
              const metrics = computeMetrics({
                equityCurve: [
                  { ts: 1_000, equity: equityStart },
                  { ts: end, equity: equityStart },
                ],
                trades: run.closed,
                openTrades: run.open,
                fills,
              });
              expect(total.trades).toBe(metrics.tradeCount);
              expect(total.winRate).toBe(metrics.winRate);
              expect(total.fees.eq(metrics.feesPaid)).toBe(true);
              expect(total.exposureTime).toBeCloseTo(metrics.exposureTime, 12);
              // What a run tallies as it goes (the book's exposure stretches per sym) is what
              // the result's trades and fills give.
              const tallied = run.tally.breakdown({
                ...span,
                exposureOf: (sym) =>
                  sym === undefined
                    ? run.book.exposureIntervals(end)
                    : run.book.symExposureIntervals(sym, end),
              });
              expect(tallied.syms.map((row) => row.sym)).toEqual(syms.map((row) => row.sym));
              tallied.syms.forEach((row, i) => {
                const want = syms[i];
                expect(row.trades).toBe(want?.trades);
                expect(row.winRate).toBe(want?.winRate);
                expect(row.netPnl.eq(want?.netPnl ?? D(0))).toBe(true);
                expect(row.fees.eq(want?.fees ?? D(0))).toBe(true);
                expect(row.exposureTime).toBeCloseTo(want?.exposureTime ?? 0, 12);
              });
            }),
            { numRuns: 20 },
          ),
      ),
      { numRuns: 10 },
    );
  });

  it('has no rows and zero totals without fills; no return contribution without a positive starting equity', () => {
    const empty = symBreakdownOf({
      trades: [],
      openTrades: [],
      fills: [],
      start: 0,
      end: 10,
      equityStart: D(0),
    });
    expect(empty.syms).toEqual([]);
    expect(empty.total.trades).toBe(0);
    expect(empty.total.winRate).toBeNull();
    expect(empty.total.returnContribution).toBeNull();
    expect(empty.total.exposureTime).toBe(0);
  });
});
