import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  computedSnapshot,
  type EquityBucket,
  mergedBuckets,
} from '../../../backtest/runner/equity-buckets.ts';
import { D } from '../../../core/model/index.ts';

/** A closed bucket of one sample: its low, high and close alike, and BTC's one bar around it. */
function aBucket(key: number, equity: number): EquityBucket {
  const sample = { ts: key * 1000, snapshot: computedSnapshot(D(equity)), n: equity };
  return {
    key,
    low: sample,
    lowN: equity,
    high: sample,
    highN: equity,
    close: sample,
    prices: [['BTC', equity]],
    ranges: [['BTC', equity - 1, equity + 1]],
  };
}

describe('mergedBuckets', () => {
  it('merges neighbours into wider buckets holding each group’s lowest low, highest high and last close, leaving the input array as it was', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.nat(200), { minLength: 1, maxLength: 60 }),
        fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 60, maxLength: 60 }),
        fc.integer({ min: 2, max: 5 }),
        (rawKeys, equities, ratio) => {
          const keys = [...rawKeys].sort((a, b) => a - b);
          const buckets = keys.map((key, i) => aBucket(key, equities[i] as number));
          const before = [...buckets];
          const merged = mergedBuckets(buckets, ratio);
          expect(buckets).toEqual(before);
          const groups = new Map<number, number[]>();
          keys.forEach((key, i) => {
            const group = groups.get(Math.floor(key / ratio)) ?? [];
            group.push(i);
            groups.set(Math.floor(key / ratio), group);
          });
          expect(merged.map((b) => b.key)).toEqual([...groups.keys()]);
          merged.forEach((bucket, g) => {
            const members = [...groups.values()][g] as number[];
            const values = members.map((i) => equities[i] as number);
            const lastKey = keys[members.at(-1) as number] as number;
            expect(bucket.lowN).toBe(Math.min(...values));
            expect(bucket.highN).toBe(Math.max(...values));
            expect(bucket.close?.ts).toBe(lastKey * 1000);
            expect(bucket.prices).toEqual([['BTC', equities[members.at(-1) as number]]]);
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it("widens each sym's bar range over the group, keeping a sym only one bucket had", () => {
    const first = { ...aBucket(0, 100), ranges: [['BTC', 99, 101]] as const };
    const second = { ...aBucket(1, 100), ranges: [['BTC', 95, 100] as const, ['ETH', 10, 11] as const] };
    const third = { ...aBucket(2, 100), ranges: [] };
    const [merged] = mergedBuckets([first, second, third], 4);
    expect(merged?.ranges).toEqual([
      ['BTC', 95, 101],
      ['ETH', 10, 11],
    ]);
  });
});
