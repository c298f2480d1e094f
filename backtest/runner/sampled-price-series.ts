import type { EquitySample, PricePoint, PriceSeries } from '../report/index.ts';
import type { BarRange, EquityBucket } from './equity-buckets.ts';

/** A point being built: its price may still change, and a bar range may still come. */
interface OpenPoint {
  ts: number;
  price: number;
  low?: number;
  high?: number;
}

/**
 * The price series of every sym seen, in the order they first appeared: its first price exactly,
 * its price at each bucket's close (with, on bar data, the bucket's bar range), and its last
 * price at the end, so buy & hold compares the true first and last price however the buckets
 * merged.
 * @param firstSeen - each sym's first price and its time
 * @param buckets - the closed buckets, oldest first, each with the syms' prices at its close
 * @param final - the final sample, once taken
 * @param last - each sym's last price
 * @returns one series per sym
 */
export function sampledPriceSeries(
  firstSeen: ReadonlyMap<string, PricePoint>,
  buckets: readonly EquityBucket[],
  final: EquitySample | undefined,
  last: ReadonlyMap<string, number>,
): PriceSeries[] {
  const series = new Map<string, OpenPoint[]>();
  for (const [sym, point] of firstSeen) series.set(sym, [{ ...point }]);
  const add = (ts: number, prices: readonly (readonly [string, number])[]): void => {
    for (const [sym, price] of prices) {
      let points = series.get(sym);
      if (points === undefined) {
        points = [];
        series.set(sym, points);
      }
      const lastPoint = points[points.length - 1];
      // The first point stays: a later price at the same time does not replace it.
      if (lastPoint !== undefined && lastPoint.ts === ts) {
        if (points.length > 1) lastPoint.price = price;
      } else if (lastPoint === undefined || lastPoint.ts < ts) points.push({ ts, price });
    }
  };
  // The range goes on the sym's point at the bucket's close (the first point, when the first
  // bar closed the first bucket).
  const widen = (ts: number, ranges: readonly BarRange[]): void => {
    for (const [sym, low, high] of ranges) {
      const point = series.get(sym)?.at(-1);
      if (point?.ts !== ts) continue;
      point.low = Math.min(point.low ?? low, low);
      point.high = Math.max(point.high ?? high, high);
    }
  };
  for (const bucket of buckets) {
    if (!bucket.close) continue;
    add(bucket.close.ts, bucket.prices);
    widen(bucket.close.ts, bucket.ranges);
  }
  if (final !== undefined) add(final.ts, [...last]);
  return [...series].map(([sym, points]) => ({ sym, points }));
}
