import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buyAndHoldReturn, drawdownStats, type EquitySample } from '../../../backtest/report/index.ts';
import { widerBucket } from '../../../backtest/runner/bucket-width.ts';
import { EquitySampler } from '../../../backtest/runner/index.ts';
import { type BarEvent, D, type Dec } from '../../../core/model/index.ts';

const DAY = 86_400_000;
const MINUTE = 60_000;

function bar(ts: number, close: number): BarEvent {
  return {
    kind: 'bar',
    sym: 'X',
    ts,
    recvTs: ts,
    interval: '1m',
    openTime: ts - MINUTE,
    open: close,
    high: close,
    low: close,
    close,
    volume: 1,
    closed: true,
  };
}

/** Replays equity values one per minute the way the runner does, with or without an estimate. */
function replay(values: readonly number[], maxBuckets: number, withEstimate: boolean) {
  let now = 0;
  const exactCalls = { n: 0 };
  const equity = (): Dec => {
    exactCalls.n++;
    return D(values[now] as number);
  };
  const sampler = new EquitySampler(MINUTE, equity, {
    maxBuckets,
    ...(withEstimate
      ? {
          estimate: () => values[now] as number,
          snapshot: () => {
            const at = now;
            return () => {
              exactCalls.n++;
              return D(values[at] as number);
            };
          },
        }
      : {}),
  });
  sampler.start(0);
  values.forEach((value, i) => {
    sampler.beforeEvent(i * MINUTE);
    now = i;
    sampler.observe(bar(i * MINUTE, value));
  });
  sampler.sample((values.length - 1) * MINUTE);
  expect(sampler.curve.length).toBeGreaterThan(0);
  return { sampler, exactCalls: exactCalls.n };
}

describe('equity sampler', () => {
  it('keeps the curve bounded while the lowest, highest and final equity stay exact', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 1, maxLength: 3000 }),
        fc.integer({ min: 2, max: 64 }),
        fc.boolean(),
        (values, maxBuckets, withEstimate) => {
          const { sampler } = replay(values, maxBuckets, withEstimate);
          const curve = sampler.curve.map((s) => s.equity.toNumber());
          expect(sampler.curve.length).toBeLessThanOrEqual(3 * (maxBuckets + 1) + 2);
          expect(Math.min(...curve)).toBe(Math.min(...values));
          expect(Math.max(...curve)).toBe(Math.max(...values));
          expect(curve.at(-1)).toBe(values.at(-1));
          const times = sampler.curve.map((s) => s.ts);
          expect([...times].sort((a, b) => a - b)).toEqual(times);
          expect(new Set(times).size).toBe(times.length);
        },
      ),
    );
  });

  it('measures drawdowns and mean equity on every sample, not only on the bounded curve', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 2000 }),
        fc.boolean(),
        (values, withEstimate) => {
          const { sampler } = replay(values, 4, withEstimate);
          // Every sample the sampler took: the start (value 0's equity at t=0), one per minute, the end.
          const all: EquitySample[] = [
            { ts: 0, equity: D(values[0] as number) },
            ...values.map((v, i) => ({ ts: i * MINUTE, equity: D(v) })),
            { ts: (values.length - 1) * MINUTE, equity: D(values.at(-1) as number) },
          ];
          const expected = drawdownStats(all);
          const figures = sampler.drawdownFigures();
          expect(figures.maxDrawdown).toBe(expected.maxDrawdown);
          expect(figures.avgDrawdown).toBe(expected.avgDrawdown);
          expect(figures.maxDrawdownDurationMs).toBe(expected.maxDrawdownDurationMs);
          expect(figures.avgDrawdownDurationMs).toBe(expected.avgDrawdownDurationMs);
          const mean = all.reduce((sum, s) => sum + s.equity.toNumber(), 0) / all.length;
          expect(sampler.meanEquity()).toBeCloseTo(mean, 9);
        },
      ),
    );
  });

  it('keeps the last equity of every UTC day while buckets are narrower than a day', () => {
    const values = Array.from({ length: 10 * 1440 }, (_, i) => 1000 + ((i * 7919) % 997));
    const { sampler } = replay(values, 64, true);
    expect(sampler.bucketMs).toBeLessThanOrEqual(DAY);
    const lastOfDay = new Map<number, number>();
    for (const [i, v] of values.entries()) lastOfDay.set(Math.floor((i * MINUTE) / DAY), v);
    const curveLastOfDay = new Map<number, number>();
    for (const s of sampler.curve) curveLastOfDay.set(Math.floor(s.ts / DAY), s.equity.toNumber());
    expect(curveLastOfDay).toEqual(lastOfDay);
  });

  it('computes the exact equity only for the extremes and close of each bucket when given an estimate and snapshots', () => {
    const values = Array.from({ length: 20_000 }, (_, i) => 1000 + Math.sin(i / 50) * 100);
    const estimated = replay(values, 256, true);
    const exact = replay(values, 256, false);
    expect(estimated.exactCalls).toBeLessThanOrEqual(3 * 257 + 2);
    expect(exact.exactCalls).toBeGreaterThanOrEqual(values.length);
  });

  it("keeps each sym's first and last price exactly when buckets merge, so buy & hold compares them", () => {
    // Closes 100, 101, ..., 109 one a minute into at most 2 buckets: merged buckets keep their
    // last close, so the first point used to be a later price; buy & hold is 109 / 100 - 1 = 0.09.
    const values = Array.from({ length: 10 }, (_, i) => 100 + i);
    for (const withEstimate of [false, true]) {
      const { sampler } = replay(values, 2, withEstimate);
      const points = sampler.priceSeries()[0]?.points ?? [];
      expect(points[0]).toEqual({ ts: 0, price: 100 });
      expect(points.at(-1)).toEqual({ ts: 9 * MINUTE, price: 109 });
      expect(buyAndHoldReturn(points)).toBeCloseTo(0.09, 12);
    }
  });

  it('widens buckets by whole multiples that divide a day, then by doubling', () => {
    let width = MINUTE;
    while (width < 8 * DAY) {
      const next = widerBucket(width);
      expect(next).toBeGreaterThanOrEqual(2 * width);
      expect(next % width).toBe(0);
      if (next <= DAY) expect(DAY % next).toBe(0);
      width = next;
    }
  });
});
