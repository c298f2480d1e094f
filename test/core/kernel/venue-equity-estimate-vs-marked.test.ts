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
});
