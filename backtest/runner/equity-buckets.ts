import type { Dec } from '../../core/model/index.ts';
import type { EquitySnapshot } from '../sim/index.ts';

/**
 * @param equity - an equity already computed
 * @returns the snapshot giving it
 */
export function computedSnapshot(equity: Dec): EquitySnapshot {
  return { exact: () => equity };
}

/** A sample whose exact equity is computed only when the curve is read. */
export interface DeferredSample {
  readonly ts: number;
  readonly snapshot: EquitySnapshot;
  /** Its equity as a number (the estimate it was chosen on): which points may be the curve's peak. */
  readonly n: number;
}

/**
 * One time bucket of a bounded equity curve: its lowest and highest sample (chosen on the numbers
 * `lowN` and `highN`) and its equity at its last event, all deferred until the curve is read, so
 * samples dropped when buckets merge never cost Decimal work.
 */
export interface EquityBucket {
  key: number;
  low: DeferredSample | undefined;
  lowN: number;
  high: DeferredSample | undefined;
  highN: number;
  close: DeferredSample | undefined;
  /** Last price of each sym at the close. */
  prices: readonly (readonly [string, number])[];
  /** The lowest low and highest high of each sym's bars in the bucket (syms priced by bars only). */
  ranges: readonly BarRange[];
}

/** A sym's lowest low and highest high over some bars. */
export type BarRange = readonly [sym: string, low: number, high: number];

/** The ranges of a bucket no bar came in (shared: most buckets of quote or trade data). */
export const NO_BAR_RANGES: readonly BarRange[] = [];

/**
 * @param a - the ranges of a bucket
 * @param b - the ranges of a later bucket
 * @returns each sym's range over both
 */
function widerRanges(a: readonly BarRange[], b: readonly BarRange[]): readonly BarRange[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const bySym = new Map<string, BarRange>(a.map((r) => [r[0], r]));
  for (const [sym, low, high] of b) {
    const was = bySym.get(sym);
    bySym.set(
      sym,
      was === undefined ? [sym, low, high] : [sym, Math.min(was[1], low), Math.max(was[2], high)],
    );
  }
  return [...bySym.values()];
}

/**
 * @param key - the bucket's index: its start time / its width
 * @returns a bucket holding no sample yet
 */
export function emptyBucket(key: number): EquityBucket {
  return {
    key,
    low: undefined,
    lowN: Number.POSITIVE_INFINITY,
    high: undefined,
    highN: Number.NEGATIVE_INFINITY,
    close: undefined,
    prices: [],
    ranges: NO_BAR_RANGES,
  };
}

/**
 * @param bucket - the bucket
 * @param n - a sample's equity as a number
 * @returns whether the sample would be the bucket's new low or high (worth capturing)
 */
export function isExtreme(bucket: EquityBucket, n: number): boolean {
  return n < bucket.lowN || n > bucket.highN;
}

/**
 * Notes a sample as the bucket's low or high when it is one. The caller builds the sample only
 * when {@link isExtreme} says so: a closure deferring it cost an allocation per sample.
 * @param bucket - the bucket, changed in place
 * @param n - the sample's equity as a number
 * @param sample - the deferred sample
 */
export function keepExtreme(bucket: EquityBucket, n: number, sample: DeferredSample): void {
  if (n < bucket.lowN) {
    bucket.low = sample;
    bucket.lowN = n;
  }
  if (n > bucket.highN) {
    bucket.high = sample;
    bucket.highN = n;
  }
}

/**
 * Merges neighbouring buckets into buckets `ratio` times wider: the first bucket of each group
 * takes the lowest low, the highest high and the last close (with its prices) of the group, each
 * sym's bar range over the group, and
 * is the one kept (the sampler owns its buckets: no copy of each is needed). The merged buckets go
 * into a new array: shrinking the sampler's long-lived one in place cost about a millisecond a
 * merge in a run (V8 trims the old array's store), as much as the rest of the merge many times over.
 * @param buckets - the buckets in time order; the first of each group is changed in place
 * @param ratio - the new width / the old width, a whole number
 * @returns the merged buckets, in time order
 */
export function mergedBuckets(buckets: readonly EquityBucket[], ratio: number): EquityBucket[] {
  const merged: EquityBucket[] = [];
  let into: EquityBucket | undefined;
  for (const bucket of buckets) {
    const key = Math.floor(bucket.key / ratio);
    if (into === undefined || into.key !== key) {
      bucket.key = key;
      merged.push(bucket);
      into = bucket;
      continue;
    }
    if (bucket.lowN < into.lowN) {
      into.low = bucket.low;
      into.lowN = bucket.lowN;
    }
    if (bucket.highN > into.highN) {
      into.high = bucket.high;
      into.highN = bucket.highN;
    }
    if (bucket.close !== undefined) {
      into.close = bucket.close;
      into.prices = bucket.prices;
    }
    into.ranges = widerRanges(into.ranges, bucket.ranges);
  }
  return merged;
}
