import type { Dec } from '../../core/model/index.ts';
import { asNumber } from '../../core/model/index.ts';
import type { EquitySample } from '../report/index.ts';
import type { EquitySnapshot } from '../sim/index.ts';
import type { DeferredSample, EquityBucket } from './equity-buckets.ts';

/**
 * How far below the highest number a point's number may be and still be the exact peak: the
 * numbers are the estimates the points were chosen on, which differ from the exact equity by float
 * rounding only (some 1e-15 of the positions' notional), far inside this share of the equity.
 */
const PEAK_MARGIN = 1e-6;

/**
 * A run's equity curve whose exact (Decimal) equities are computed point by point as they are
 * read: a backtest's metrics read a few dozen of its thousands of points (the daily closes, the
 * first and the last), and each point computed cost a Decimal product and sum.
 */
export interface DeferredCurve {
  /** The points in time order; a point's `equity` is computed when first read, then kept. */
  readonly samples: readonly EquitySample[];
  /** Each point's equity as a number, in the same order (see {@link DeferredSample.n}). */
  readonly numbers: readonly number[];
}

/** An exact equity computed on its first read and kept, shared by the points of one snapshot. */
class ExactOnRead {
  #equity: Dec | undefined;

  constructor(private readonly snapshot: EquitySnapshot) {}

  get equity(): Dec {
    this.#equity ??= this.snapshot.exact();
    return this.#equity;
  }
}

/**
 * A point whose equity is an own enumerable property, as a plain sample's (JSON, copies and
 * comparisons read it like one), computed on its first read.
 */
function deferredPoint(ts: number, exact: ExactOnRead): EquitySample {
  return {
    ts,
    get equity(): Dec {
      return exact.equity;
    },
  };
}

/**
 * The equity curve of a run: its start, each bucket's low, high and close in time order, its end;
 * a later sample at the same time replaces an earlier one.
 * @param first - the starting equity, if taken
 * @param buckets - the closed buckets in time order
 * @param final - the final sample, if taken
 * @returns the curve, each deferred point computed when read
 */
export function curveOf(
  first: EquitySample | undefined,
  buckets: readonly EquityBucket[],
  final: EquitySample | undefined,
): DeferredCurve {
  // The points are picked first: a point replaced by a later one of its time (on bars a
  // bucket's low, high and close are mostly one sample) is never made.
  const kept: (EquitySample | DeferredSample)[] = [];
  const push = (sample: EquitySample | DeferredSample | undefined): void => {
    if (sample === undefined) return;
    const previous = kept[kept.length - 1];
    if (previous !== undefined && previous.ts === sample.ts) kept[kept.length - 1] = sample;
    else if (previous === undefined || previous.ts < sample.ts) kept.push(sample);
  };
  push(first);
  for (const { low, high, close } of buckets) {
    // In time order; a low and a high of the same time keep that order.
    if (low !== undefined && high !== undefined && high.ts < low.ts) {
      push(high);
      push(low);
    } else {
      push(low);
      push(high);
    }
    push(close);
  }
  push(final);
  const samples: EquitySample[] = [];
  const numbers: number[] = [];
  // A close reusing the snapshot of a low or high just before it shares its equity: computed once.
  let lastSnapshot: EquitySnapshot | undefined;
  let lastExact: ExactOnRead | undefined;
  for (const sample of kept) {
    if (!('snapshot' in sample)) {
      samples.push(sample);
      numbers.push(asNumber(sample.equity));
      continue;
    }
    if (sample.snapshot !== lastSnapshot || lastExact === undefined) {
      lastSnapshot = sample.snapshot;
      lastExact = new ExactOnRead(sample.snapshot);
    }
    samples.push(deferredPoint(sample.ts, lastExact));
    numbers.push(sample.n);
  }
  return { samples, numbers };
}

/**
 * The highest exact equity of a curve, as the first point holding it gives it, computing only the
 * points whose number is within {@link PEAK_MARGIN} of the highest number (and those without one).
 * @param curve - the curve
 * @returns the peak, or undefined for an empty curve
 */
export function peakOf(curve: DeferredCurve): Dec | undefined {
  const { samples, numbers } = curve;
  let top = Number.NEGATIVE_INFINITY;
  for (const n of numbers) if (n > top) top = n;
  const floor = top - PEAK_MARGIN * Math.max(1, Math.abs(top));
  let peak: Dec | undefined;
  for (let i = 0; i < samples.length; i++) {
    // A NaN number (an estimate missing a price) says nothing: the point is computed.
    if ((numbers[i] as number) < floor) continue;
    const equity = (samples[i] as EquitySample).equity;
    if (peak === undefined || equity.gt(peak)) peak = equity;
  }
  return peak;
}
