import type { EquitySample, PricePoint, PriceSeries } from '../report/index.ts';
import type { EquityBucket } from './equity-buckets.ts';

/**
 * The price series of every sym seen, in the order they first appeared: its first price exactly,
 * its price at each bucket's close, and its last price at the end, so buy & hold compares the
 * true first and last price however the buckets merged.
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
  const series = new Map<string, { ts: number; price: number }[]>();
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
  for (const bucket of buckets) if (bucket.close) add(bucket.close.ts, bucket.prices);
  if (final !== undefined) add(final.ts, [...last]);
  return [...series].map(([sym, points]) => ({ sym, points }));
}
