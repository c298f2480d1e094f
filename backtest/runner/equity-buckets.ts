import type { Dec } from '../../core/model/index.ts';
import type { EquitySample } from '../report/index.ts';

/** A sample whose exact equity is computed only when the curve is read. */
export interface DeferredSample {
  readonly ts: number;
  readonly equity: () => Dec;
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
  };
}

/**
 * Notes a sample as the bucket's low or high when it is one.
 * @param bucket - the bucket, changed in place
 * @param n - the sample's equity as a number
 * @param sample - makes the deferred sample; called only when the sample is kept
 */
export function offerExtreme(bucket: EquityBucket, n: number, sample: () => DeferredSample): void {
  if (n >= bucket.lowN && n <= bucket.highN) return;
  const kept = sample();
  if (n < bucket.lowN) [bucket.low, bucket.lowN] = [kept, n];
  if (n > bucket.highN) [bucket.high, bucket.highN] = [kept, n];
}

/**
 * Merges neighbouring buckets into buckets `ratio` times wider: each keeps the lowest low, the
 * highest high and the last close (with its prices) of the buckets it replaces.
 * @param buckets - the buckets in time order
 * @param ratio - the new width / the old width, a whole number
 * @returns the merged buckets in time order
 */
export function mergedBuckets(buckets: readonly EquityBucket[], ratio: number): EquityBucket[] {
  const merged: EquityBucket[] = [];
  for (const bucket of buckets) {
    const key = Math.floor(bucket.key / ratio);
    const into = merged[merged.length - 1];
    if (into === undefined || into.key !== key) {
      merged.push({ ...bucket, key });
      continue;
    }
    if (bucket.lowN < into.lowN) [into.low, into.lowN] = [bucket.low, bucket.lowN];
    if (bucket.highN > into.highN) [into.high, into.highN] = [bucket.high, bucket.highN];
    if (bucket.close !== undefined) {
      into.close = bucket.close;
      into.prices = bucket.prices;
    }
  }
  return merged;
}

/**
 * The equity curve of a run: its start, each bucket's low, high and close in time order, its end;
 * a later sample at the same time replaces an earlier one.
 * @param first - the starting equity, if taken
 * @param buckets - the closed buckets in time order
 * @param final - the final sample, if taken
 * @returns the curve, exact (the deferred samples computed now)
 */
export function curveOf(
  first: EquitySample | undefined,
  buckets: readonly EquityBucket[],
  final: EquitySample | undefined,
): EquitySample[] {
  const out: EquitySample[] = [];
  const push = (sample: EquitySample | undefined): void => {
    if (sample === undefined) return;
    const previous = out[out.length - 1];
    if (previous !== undefined && previous.ts === sample.ts) out[out.length - 1] = sample;
    else if (previous === undefined || previous.ts < sample.ts) out.push(sample);
  };
  const materialize = (d: DeferredSample | undefined): EquitySample | undefined =>
    d === undefined ? undefined : { ts: d.ts, equity: d.equity() };
  push(first);
  for (const bucket of buckets) {
    const points = [bucket.low, bucket.high].filter((s): s is DeferredSample => s !== undefined);
    points.sort((a, b) => a.ts - b.ts);
    for (const point of points) push(materialize(point));
    push(materialize(bucket.close));
  }
  push(final);
  return out;
}
