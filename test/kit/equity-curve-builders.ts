import fc from 'fast-check';
import type { EquitySample } from '../../backtest/report/index.ts';
import { D } from '../../core/model/index.ts';

/**
 * An equity curve from plain values, one sample every `stepMs` from `startTs`.
 * @param values - equity values in order
 * @param stepMs - time between samples (one day by default)
 * @param startTs - time of the first sample
 * @returns the samples
 */
export function equityCurveOf(values: readonly number[], stepMs = 86_400_000, startTs = 0): EquitySample[] {
  return values.map((v, i) => ({ ts: startTs + i * stepMs, equity: D(v) }));
}

/**
 * Random equity curves: 1 to 60 samples of 0.01..1e6 (two decimals), at increasing times
 * 1 ms to 3 days apart.
 * @returns an arbitrary equity curve
 */
export function arbitraryEquityCurve(): fc.Arbitrary<EquitySample[]> {
  return fc
    .array(fc.tuple(fc.integer({ min: 1, max: 100_000_000 }), fc.integer({ min: 1, max: 259_200_000 })), {
      minLength: 1,
      maxLength: 60,
    })
    .map((points) => {
      let ts = 1_700_000_000_000;
      return points.map(([cents, gap]) => {
        ts += gap;
        return { ts, equity: D(cents).div(100) };
      });
    });
}
