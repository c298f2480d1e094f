import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { positionSizer } from '../../../core/kernel/position-sizer.ts';
import { type MarkSource, VenueEquityMarks } from '../../../core/kernel/venue-equity-marks.ts';
import { D, type Position } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const AS_OF = 1_000_000;

/**
 * A LONG of 3 bought at 100, 100.5 and 100.5 (cost 301, exact average 100.3333…), reported with
 * its avgPrice rounded to 2 places (100.33) and its unrealizedPNL from the exact cost at mark 101:
 * 3 x 101 - 301 = 2: the leg is re-marked from the venue's figure, not its rounded average.
 */
const position: Position = {
  positionId: `${SYM}|LONG`,
  portfolioId: 'p',
  sym: SYM,
  positionSide: 'LONG',
  positionQty: D(3),
  avgPrice: D('100.33'),
  markPrice: D(101),
  positionValue: D(303),
  positionMargin: D(0),
  positionMM: D(0),
  unrealizedPNL: D(2),
  leverage: D(1),
  liqPrice: D(0),
  adlRank: 0,
  createAt: AS_OF,
  updateAt: AS_OF,
};

const source: MarkSource = {
  positions: new Map([[`${SYM}|LONG`, position]]),
  instrument: () => anInstrument(SYM, { lotSize: D('0.01'), minSize: D('0.01') }),
  venueMarkPrice: () => 102,
  venueMarkTime: () => AS_OF + 1000,
};

describe('VenueEquityMarks: the number estimate and the exact equity agree', () => {
  it('estimate() is within its error bound of marked() (hand-computed 10002 - 2 + 2 + 3 x (102 - 101) = 10005)', () => {
    const marks = new VenueEquityMarks();
    marks.rebase(source, AS_OF);
    const reported = D(10_002);
    const exact = marks.marked(reported, source);
    const estimate = marks.estimate(reported, source);
    expect(exact.toFixed()).toBe('10005');
    // the estimate is meant to bound the exact equity: |exact - value| <= error
    expect(Math.abs(exact.toNumber() - estimate.value)).toBeLessThanOrEqual(estimate.error);
  });

  it('equityFraction sizes from the same equity ctx.equity() shows', () => {
    const marks = new VenueEquityMarks();
    marks.rebase(source, AS_OF);
    const reported = D(10_002);
    const spec = anInstrument(SYM, { lotSize: D('0.001'), minSize: D('0.001') });
    const sizer = positionSizer({
      instrument: () => spec,
      equity: () => marks.marked(reported, source),
      equityEstimate: () => marks.estimate(reported, source),
      referencePrice: () => 3,
    });
    // equity 10005 x fraction 1 / price 3 = 3335 exactly: qty 3335 (not 3335.003 from 10005.01)
    expect(sizer.equityFraction(SYM, 1, 3).toFixed()).toBe('3335');
  });

  it('property: estimate() bounds marked() whatever the legs, their marks and held prices', () => {
    const decimal = (min: number, max: number) =>
      fc.integer({ min: min * 100, max: max * 100 }).map((cents) => D(cents).div(100));
    const leg = fc.record({
      sym: fc.constantFrom(SYM, 'BINANCE_PERP_ETH_USDT'),
      positionSide: fc.constantFrom('LONG', 'SHORT', 'NONE'),
      qty: decimal(-50, 50),
      avgPrice: decimal(1, 90_000),
      markPrice: fc.oneof(fc.constant(D(0)), decimal(1, 90_000)),
      unrealizedPNL: decimal(-5_000, 5_000),
      heldAt: fc.option(fc.double({ min: 1, max: 90_000, noNaN: true }), { nil: undefined }),
      now: fc.option(fc.double({ min: 1, max: 90_000, noNaN: true }), { nil: undefined }),
    });
    fc.assert(
      fc.property(
        fc.array(leg, { minLength: 1, maxLength: 2 }),
        decimal(-100_000, 100_000),
        (legs, reported) => {
          const positions = new Map<string, Position>();
          for (const l of legs) {
            positions.set(`${l.sym}|${l.positionSide}`, {
              ...position,
              sym: l.sym,
              positionSide: l.positionSide as Position['positionSide'],
              positionQty: l.positionSide === 'SHORT' ? l.qty.abs() : l.qty,
              avgPrice: l.avgPrice,
              markPrice: l.markPrice,
              unrealizedPNL: l.unrealizedPNL,
              // Reported before the equity: a price at the report's time holds the leg instead.
              updateAt: AS_OF - 5_000,
            });
          }
          type Leg = (typeof legs)[number];
          const priceOf = (pick: (l: Leg) => number | undefined) => (sym: string) =>
            pick(legs.find((l) => l.sym === sym) as Leg);
          const spec = anInstrument(SYM, { contractSize: D('0.01') });
          const atReport: MarkSource = {
            positions,
            instrument: () => spec,
            venueMarkPrice: priceOf((l) => l.heldAt),
            venueMarkTime: () => AS_OF,
          };
          const later: MarkSource = { ...atReport, venueMarkPrice: priceOf((l) => l.now) };
          const marks = new VenueEquityMarks();
          marks.rebase(atReport, AS_OF);
          const exact = marks.marked(reported, later);
          const estimate = marks.estimate(reported, later);
          expect(Math.abs(exact.toNumber() - estimate.value)).toBeLessThanOrEqual(estimate.error);
        },
      ),
      { numRuns: 500 },
    );
  });
});
