import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BarAggregator } from '../../../core/kernel/bar-aggregator.ts';
import type { BarEvent, BarInterval } from '../../../core/model/index.ts';
import { BAR_INTERVAL_MS } from '../../../core/model/index.ts';
import { aTrade } from '../../kit/kernel-events.ts';

const SYM = 'BTCUSDT';
const T = 1_700_000_040_000;
const INTERVALS: readonly BarInterval[] = ['1m', '5m'];

/**
 * One event as a live kernel handles it: a venue trade, or any other event (a quote, an order the
 * adapter made itself), whose time is `ms` after the previous one's: negative when it is stamped
 * on a clock behind (a trade received late, an event stamped on the venue clock estimate after a
 * re-sync stepped it back), far ahead when the estimate jumped forward.
 */
const event = fc.record({
  kind: fc.constantFrom('trade' as const, 'other' as const),
  ms: fc.oneof(fc.integer({ min: -5_000, max: 5_000 }), fc.integer({ min: -120_000, max: 400_000 })),
  price: fc.integer({ min: 1, max: 1_000 }),
});

describe('bars built from trades, closed on event times that step back and jump forward', () => {
  it('property: one bar per period at most, in strictly increasing openTime, none before an event reached its end, every trade in a bar or counted late', () => {
    fc.assert(
      fc.property(fc.array(event, { minLength: 1, maxLength: 80 }), (events) => {
        const agg = new BarAggregator();
        for (const interval of INTERVALS) agg.watch(SYM, interval);
        const bars: BarEvent[] = [];
        let reached = Number.NEGATIVE_INFINITY;
        const emit = (bar: BarEvent): void => {
          expect(bar.ts).toBeLessThanOrEqual(reached);
          bars.push(bar);
        };
        let ts = T;
        let trades = 0;
        for (const e of events) {
          ts += e.ms;
          reached = Math.max(reached, ts);
          // As the kernel handles each event: the bars its time ends close first.
          agg.closeDue(ts, emit);
          if (e.kind === 'trade') {
            agg.onTrade(aTrade(ts, e.price, 1, SYM), emit);
            trades++;
          }
        }
        reached = Number.MAX_SAFE_INTEGER;
        agg.closeDue(reached, emit);
        expect(agg.nextClose).toBe(Number.POSITIVE_INFINITY);
        for (const interval of INTERVALS) {
          const ms = BAR_INTERVAL_MS[interval];
          const of = bars.filter((b) => b.interval === interval);
          for (const [i, bar] of of.entries()) {
            expect(bar.openTime % ms).toBe(0);
            expect(bar.ts).toBe(bar.openTime + ms);
            if (i > 0) expect(bar.openTime).toBeGreaterThan((of[i - 1] as BarEvent).openTime);
          }
          const late = agg.late().find((l) => l.interval === interval && l.reason === 'late')?.count ?? 0;
          const barred = of.reduce((sum, b) => sum + b.volume, 0);
          expect(barred + late).toBe(trades);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('closes a bar once, when an event reaches its end, and leaves out a trade of it stamped before a step back', () => {
    const agg = new BarAggregator();
    agg.watch(SYM, '1m');
    const bars: BarEvent[] = [];
    const emit = (bar: BarEvent): void => void bars.push(bar);
    const minute = T - (T % 60_000);
    agg.onTrade(aTrade(minute + 1_000, 100, 1, SYM), emit);
    // An event stamped on the session's clock at the minute's end, then the estimate steps back 2 s.
    agg.closeDue(minute + 60_000, emit);
    agg.closeDue(minute + 58_000, emit);
    agg.onTrade(aTrade(minute + 58_500, 101, 1, SYM), emit);
    agg.closeDue(minute + 60_500, emit);
    expect(bars.map((b) => [b.openTime - minute, b.close, b.volume])).toEqual([[0, 100, 1]]);
    expect(agg.late()).toEqual([
      { sym: SYM, interval: '1m', from: 'trade', reason: 'late', count: 1, firstTs: minute + 58_500 },
    ]);
  });
});
