import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  buyAndHoldReturn,
  CRYPTO_ANNUALIZATION,
  drawdownStats,
  type EquitySample,
  periodReturns,
} from '../../../backtest/report/index.ts';
import { widerBucket } from '../../../backtest/runner/bucket-width.ts';
import { EquitySampler } from '../../../backtest/runner/index.ts';
import { type BarEvent, D, type Dec, type QuoteEvent } from '../../../core/model/index.ts';
import { aDailyBar } from '../../kit/daily-bars.ts';

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

/**
 * Replays equity values one per minute the way the runner does, with or without an estimate.
 * Counts the exact equities taken (`exactCalls`), and of them the captures computed, besides
 * the captures taken (`captured`).
 */
function replay(
  values: readonly number[],
  maxBuckets: number,
  withEstimate: boolean,
  { stepMs = MINUTE, endOfEvents = false } = {},
) {
  let now = 0;
  const calls = { exact: 0, captured: 0, computed: 0 };
  const equity = (): Dec => {
    calls.exact++;
    return D(values[now] as number);
  };
  const sampler = new EquitySampler(stepMs, equity, {
    maxBuckets,
    ...(withEstimate
      ? {
          estimate: () => values[now] as number,
          snapshot: () => {
            calls.captured++;
            const at = now;
            return {
              exact: () => {
                calls.exact++;
                calls.computed++;
                return D(values[at] as number);
              },
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
  if (endOfEvents) sampler.endOfEvents();
  sampler.sample((values.length - 1) * MINUTE);
  expect(sampler.curve.length).toBeGreaterThan(0);
  // `calls` goes on counting after the replay, as the curve's points are read.
  return { sampler, exactCalls: calls.exact, captured: calls.captured, computed: calls.computed, calls };
}

/** Replays equity values one event every `stepMs` through a sampler with an estimate, as the runner does. */
function replayEvery(values: readonly number[], stepMs: number, everyMs: number) {
  let now = 0;
  const sampler = new EquitySampler(everyMs, () => D(values[now] as number), {
    estimate: () => values[now] as number,
  });
  sampler.start(0);
  values.forEach((value, i) => {
    sampler.beforeEvent(i * stepMs);
    now = i;
    sampler.observe(bar(i * stepMs, value));
  });
  sampler.endOfEvents();
  sampler.sample((values.length - 1) * stepMs);
  return { sampler };
}

function quote(ts: number, sym: string, mid: number): QuoteEvent {
  return { kind: 'quote', sym, ts, recvTs: ts, bid: mid - 0.05, bidQty: 1, ask: mid + 0.05, askQty: 1 };
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
          // At most maxBuckets buckets, or one a UTC day once they are a day wide (3000 min: 3 days).
          expect(sampler.curve.length).toBeLessThanOrEqual(3 * Math.max(maxBuckets, 3) + 2);
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
          // A sample of the same time as the one before replaces it (the start, by value 0's; the end).
          const kept = all.filter((sample, i) => all[i + 1]?.ts !== sample.ts);
          const mean = kept.reduce((sum, s) => sum + s.equity.toNumber(), 0) / kept.length;
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

  it('captures the equity once per bar when each bar is its own bucket, and computes each captured equity once', () => {
    // A 1 s step on 1 min bars, as a long bar run gets: every sample is its bucket's low, high and
    // close at once, and the close reuses the capture the sample took.
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 400 }),
        fc.integer({ min: 2, max: 1000 }),
        (values, maxBuckets) => {
          const { sampler, captured, computed } = replay(values, maxBuckets, true, {
            stepMs: 1000,
            endOfEvents: true,
          });
          for (const s of sampler.curve) expect(s.equity.toNumber()).toBe(values[s.ts / MINUTE]);
          expect(captured).toBeLessThanOrEqual(values.length);
          expect(computed).toBeLessThanOrEqual(sampler.curve.length);
        },
      ),
    );
  });

  it('computes a point of the curve only when its equity is read, and each captured equity once', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 1, maxLength: 600 }),
        fc.integer({ min: 2, max: 64 }),
        (values, maxBuckets) => {
          // The replay read the curve's length: no point's equity yet.
          const run = replay(values, maxBuckets, true);
          expect(run.calls.computed).toBe(0);
          const curve = run.sampler.curve;
          for (const point of curve) expect(point.equity.toNumber()).toBe(values[point.ts / MINUTE]);
          const computed = run.calls.computed;
          expect(computed).toBeLessThanOrEqual(curve.length);
          // Read again, a point is not computed again.
          for (const point of curve) point.equity.toNumber();
          expect(run.calls.computed).toBe(computed);
        },
      ),
    );
  });

  it("finds the curve's peak as its first highest point, computing only the points whose estimate is near it", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 1, maxLength: 600 }),
        fc.integer({ min: 2, max: 64 }),
        (values, maxBuckets) => {
          const run = replay(values, maxBuckets, true);
          const peak = run.sampler.equityPeak();
          const computed = run.calls.computed;
          const curve = run.sampler.curve.map((s) => s.equity.toNumber());
          const top = Math.max(...curve);
          expect(peak?.toNumber()).toBe(top);
          // Points within a millionth of the peak may be computed to find it; no other.
          expect(computed).toBeLessThanOrEqual(curve.filter((v) => v >= top * (1 - 1e-6)).length);
        },
      ),
    );
  });

  it("notes each event's price in place: no map is written per event once its sym was seen", () => {
    const sampler = new EquitySampler(MINUTE, () => D(1000), { estimate: () => 1000 });
    sampler.start(0);
    const syms = ['X', 'Y'];
    const observeAll = (from: number, to: number): void => {
      for (let i = from; i < to; i++) {
        const ts = Math.floor(i / 2) * MINUTE;
        sampler.beforeEvent(ts);
        sampler.observe(quote(ts, syms[i % 2] as string, 100 + (i % 13)));
      }
    };
    observeAll(0, 2);
    const writes = vi.spyOn(Map.prototype, 'set');
    try {
      // Two syms in turn, one bucket each minute: a map write per bucket at most, none per price.
      observeAll(2, 2002);
      expect(writes.mock.calls.length).toBeLessThanOrEqual(1000);
    } finally {
      writes.mockRestore();
    }
    sampler.endOfEvents();
    sampler.sample(1000 * MINUTE);
    const series = sampler.priceSeries();
    expect(series.map((s) => s.sym)).toEqual(['X', 'Y']);
    expect(series.map((s) => s.points.at(-1)?.price)).toEqual([100 + (2000 % 13), 100 + (2001 % 13)]);
  });

  it("keeps each sym's first and last price exactly when buckets merge, so buy & hold compares them", () => {
    // Closes 100, 101, ..., 109 one a minute into at most 2 buckets: merged buckets keep their
    // last close, so the first point used to be a later price; buy & hold is 109 / 100 - 1 = 0.09.
    const values = Array.from({ length: 10 }, (_, i) => 100 + i);
    for (const withEstimate of [false, true]) {
      const { sampler } = replay(values, 2, withEstimate);
      const points = sampler.priceSeries()[0]?.points ?? [];
      expect(points[0]).toMatchObject({ ts: 0, price: 100 });
      expect(points.at(-1)).toMatchObject({ ts: 9 * MINUTE, price: 109 });
      expect(buyAndHoldReturn(points)).toBeCloseTo(0.09, 12);
    }
  });

  it("carries each sym's lowest and highest price of every event, not only of the bucket closes", () => {
    // One bucket a minute: the wick to 90 and the spike to 130 fall inside buckets, whose closes
    // are 100 and 101; the earliest of equal lows is kept.
    const sampler = new EquitySampler(MINUTE, () => D(1000), { estimate: () => 1000 });
    sampler.start(0);
    const prices: readonly (readonly [number, number])[] = [
      [0, 100],
      [10_000, 90],
      [20_000, 130],
      [30_000, 90],
      [59_000, 100],
      [61_000, 101],
    ];
    for (const [ts, mid] of prices) {
      sampler.beforeEvent(ts);
      sampler.observe(quote(ts, 'X', mid));
    }
    sampler.endOfEvents();
    sampler.sample(61_000);
    const [series] = sampler.priceSeries();
    expect(series?.points.map((p) => p.price)).toEqual([100, 100, 101]);
    expect(series?.low).toEqual({ ts: 10_000, price: 90 });
    expect(series?.high).toEqual({ ts: 20_000, price: 130 });
  });

  it("takes a sym's lowest and highest price on bars from their lows and highs, and gives each bucket's point its bars' range", () => {
    // Daily bars into 1 min buckets: the closes run 100..112, the lows and highs 98.5..113.
    const sampler = new EquitySampler(MINUTE, () => D(1000), { estimate: () => 1000 });
    sampler.start(0);
    const bars = [
      aDailyBar('X', '2024-01-01T00:00Z', '2024-01-02T00:00Z', [100, 101, 99, 100]),
      aDailyBar('X', '2024-01-02T00:00Z', '2024-01-03T00:00Z', [99.5, 103, 98.5, 102]),
      aDailyBar('X', '2024-01-03T00:00Z', '2024-01-04T00:00Z', [102, 113, 101, 112]),
    ];
    for (const b of bars) {
      sampler.beforeEvent(b.recvTs);
      sampler.observe(b);
    }
    sampler.endOfEvents();
    sampler.sample(bars[2]?.recvTs ?? 0);
    const [series] = sampler.priceSeries();
    expect(series?.low).toEqual({ ts: bars[1]?.recvTs, price: 98.5 });
    expect(series?.high).toEqual({ ts: bars[2]?.recvTs, price: 113 });
    expect(series?.barMs).toBe(DAY);
    expect(series?.points.map((p) => [p.price, p.low, p.high])).toEqual([
      [100, 99, 101],
      [102, 98.5, 103],
      [112, 101, 113],
    ]);
  });

  it('keeps quote prices as they were: no bar range on their points and no bar length', () => {
    const sampler = new EquitySampler(MINUTE, () => D(1000), { estimate: () => 1000 });
    sampler.start(0);
    for (const [ts, mid] of [
      [0, 100],
      [30_000, 90],
      [61_000, 101],
    ] as const) {
      sampler.beforeEvent(ts);
      sampler.observe(quote(ts, 'X', mid));
    }
    sampler.endOfEvents();
    sampler.sample(61_000);
    const [series] = sampler.priceSeries();
    expect(series?.points).toEqual([
      { ts: 0, price: 100 },
      { ts: 30_000, price: 90 },
      { ts: 61_000, price: 101 },
    ]);
    expect(series?.barMs).toBeUndefined();
  });

  it('widens buckets by whole multiples that divide a day, up to a day and no further', () => {
    let width = MINUTE;
    for (;;) {
      const next = widerBucket(width);
      if (next === undefined) break;
      expect(next).toBeGreaterThanOrEqual(2 * width);
      expect(next % width).toBe(0);
      expect(DAY % next).toBe(0);
      width = next;
    }
    expect(width).toBe(DAY);
    expect(widerBucket(7 * DAY)).toBeUndefined();
  });

  it("keeps every UTC day's last equity past maxBuckets days, so daily returns stay daily", () => {
    // 4 buckets at most, 10 days of hourly samples: the buckets stop at a day wide.
    const HOUR = 3_600_000;
    let equity = 1000;
    const sampler = new EquitySampler(MINUTE, () => D(equity), { maxBuckets: 4 });
    sampler.start(0);
    const lastOfDay = new Map<number, number>([[0, 1000]]);
    for (let h = 1; h <= 10 * 24; h++) {
      const ts = h * HOUR - 1;
      equity = 1000 + ((h * 7919) % 97);
      sampler.beforeEvent(ts);
      sampler.observe(bar(ts, 1));
      lastOfDay.set(Math.floor(ts / DAY), equity);
    }
    sampler.sample(10 * DAY - 1);
    expect(sampler.bucketMs).toBe(DAY);
    expect(sampler.curve.length).toBeLessThanOrEqual(3 * 10 + 2);
    const curveLastOfDay = new Map<number, number>();
    for (const s of sampler.curve) curveLastOfDay.set(Math.floor(s.ts / DAY), s.equity.toNumber());
    expect(curveLastOfDay).toEqual(lastOfDay);
    const daily = periodReturns(sampler.curve, { ...CRYPTO_ANNUALIZATION, sampleStepMs: sampler.bucketMs });
    expect(daily.returns).toHaveLength(10);
  });

  it('takes the sample of a time before User Data of that time changes the equity, as a backtest delivers it with the next event', () => {
    // A paper session: a bar at 1 min, then the fill of the order the strategy sent on it, stamped
    // 1 min too, arriving before or after the next bar. Either way the 1-min sample is pre-fill.
    for (const fillFirst of [true, false]) {
      let equity = 1000;
      const sampler = new EquitySampler(1000, () => D(equity), { estimate: () => equity });
      sampler.start(0);
      sampler.beforeEvent(MINUTE);
      sampler.observe(bar(MINUTE, 100));
      const fill = (): void => {
        sampler.beforeEvent(MINUTE);
        sampler.beforeUserData();
        equity = 950;
      };
      if (fillFirst) fill();
      sampler.beforeEvent(2 * MINUTE);
      sampler.observe(bar(2 * MINUTE, 100));
      if (!fillFirst) fill();
      sampler.endOfEvents();
      const at = sampler.curve.filter((s) => s.ts === MINUTE).map((s) => s.equity.toNumber());
      expect(at, `fill first: ${fillFirst}`).toEqual([1000]);
    }
  });

  it("samples once every event of a time was applied: two syms' bars or quotes of one time, as the runner feeds them", () => {
    // Long 100 A, short 100 B: when both move together the equity does not change.
    for (const kind of ['bar', 'quote'] as const) {
      for (const withEstimate of [true, false]) {
        const mark = new Map([
          ['A', 100],
          ['B', 100],
        ]);
        const value = (): number => 100_000 + 100 * ((mark.get('A') as number) - (mark.get('B') as number));
        const sampler = new EquitySampler(1000, () => D(value()), withEstimate ? { estimate: value } : {});
        sampler.start(0);
        for (let i = 1; i <= 50; i++) {
          const price = i % 2 === 0 ? 100 : 110;
          for (const sym of ['A', 'B']) {
            // A paper session calls observe only (after the kernel folded the event).
            if (withEstimate) sampler.beforeEvent(i * MINUTE);
            mark.set(sym, price);
            sampler.observe(
              kind === 'bar' ? { ...bar(i * MINUTE, price), sym } : quote(i * MINUTE, sym, price),
            );
          }
        }
        if (withEstimate) sampler.endOfEvents();
        sampler.sample(50 * MINUTE);
        expect(sampler.drawdownFigures()).toEqual({
          maxDrawdown: 0,
          avgDrawdown: 0,
          maxDrawdownDurationMs: 0,
          avgDrawdownDurationMs: 0,
        });
        expect(sampler.meanEquity()).toBe(100_000);
        for (const s of sampler.curve) expect(s.equity.toNumber()).toBe(100_000);
      }
    }
  });

  it("measures each bucket's close: a drawdown ends when the last event of a bucket regains the peak", () => {
    // One sample a minute at most, an event every 10 s: the sample at 60 s is 10 % down, and
    // equity is back at its peak at 110 s, the minute's last event: no due sample, the bucket's
    // close. The peak before it is the close at 50 s, so the drawdown lasts 60 s, not 120 s.
    const path = [100, 100, 100, 100, 100, 100, 90, 95, 95, 95, 95, 100, 100];
    const { sampler } = replayEvery(path, 10_000, MINUTE);
    expect(drawdownStats(sampler.curve).maxDrawdownDurationMs).toBe(60_000);
    expect(sampler.drawdownFigures().maxDrawdownDurationMs).toBe(60_000);
    expect(sampler.drawdownFigures().maxDrawdown).toBeCloseTo(0.1, 12);
  });
});
