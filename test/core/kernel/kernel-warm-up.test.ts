import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatPeriod, warmUpFrom } from '../../../core/kernel/index.ts';
import { replayHistory } from '../../../core/kernel/kernel-warm-up.ts';
import { BAR_INTERVAL_MS, type MarketEvent } from '../../../core/model/index.ts';
import { aFeedBar, aQuote, BTC, ETH } from '../../kit/kernel-events.ts';

describe('warm-up period', () => {
  it('counted in bars, reaches back over exactly that many whole bars closed before the start', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.values(BAR_INTERVAL_MS)),
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 20_000, max: 40_000 }),
        fc.nat({ max: 86_400_000 }),
        (align, bars, steps, offset) => {
          // Any time, on the grid or inside a step.
          const until = steps * align + (offset % align);
          const from = warmUpFrom({ periodMs: bars * align, alignMs: align }, until);
          expect(from % align).toBe(0);
          // Bars open on the grid from `from`; a bar is history when it closed before the start.
          let whole = 0;
          for (let open = from; open + align < until; open += align) whole++;
          expect(whole).toBe(bars);
        },
      ),
    );
  });

  it('as a plain period, reaches back by it from the start', () => {
    expect(warmUpFrom({ periodMs: 3_600_000 }, 10_000_000)).toBe(6_400_000);
  });

  it('is written for people in the largest unit that reads well', () => {
    expect([
      formatPeriod(172_800_000),
      formatPeriod(72_000_000),
      formatPeriod(300_000),
      formatPeriod(45_000),
    ]).toEqual(['2 d', '20 h', '5 min', '45 s']);
  });
});

const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;
const UNTIL = T0 + 60 * MIN; // run starts at minute 60; warm-up period 60 min
const bar = (m: number, sym: string) => aFeedBar(T0 + m * MIN, [100, 101, 99, 100, 1], sym);

async function* once(events: readonly MarketEvent[]): AsyncGenerator<readonly MarketEvent[]> {
  yield [...events].sort((a, b) => a.recvTs - b.recvTs);
}

const replay = (events: MarketEvent[]) =>
  replayHistory(
    once(events),
    { periodMs: 60 * MIN },
    {
      from: T0,
      until: UNTIL,
      syms: [BTC, ETH],
      watched: () => [
        { sym: BTC, interval: '1m' },
        { sym: ETH, interval: '1m' },
      ],
    },
    () => {},
    () => false,
  );

describe('warm-up coverage of a multi-sym run', () => {
  it('is not complete when one watched sym has only the last 3 minutes of the 60-minute period', async () => {
    // BTC: 60 one-minute bars, the whole hour. ETH: bars of minutes 56..58 only.
    const events = [
      ...Array.from({ length: 60 }, (_, m) => bar(m, BTC)),
      ...[56, 57, 58].map((m) => bar(m, ETH)),
    ];
    const coverage = await replay(events);
    expect(coverage.complete).toBe(false);
    expect(coverage.short).toEqual([ETH]);
  });

  it('is not complete when a sym watched for bars has only quotes in the history', async () => {
    const events: MarketEvent[] = [
      ...Array.from({ length: 60 }, (_, m) => bar(m, BTC)),
      ...Array.from({ length: 60 }, (_, m) => aQuote(T0 + m * MIN + 1, 2000, 2001, ETH)),
    ];
    const coverage = await replay(events);
    expect(coverage.uncovered).toEqual([ETH]);
  });
});

describe('warm-up coverage of the intervals watched', () => {
  // A 2 h warm-up on the hour grid, from the hour before T0 to the run's start at T0 + 1 h.
  const hourBar = (h: number, sym: string) => {
    const openTime = T0 - 60 * MIN + h * 60 * MIN;
    const ts = openTime + 60 * MIN;
    return { ...aFeedBar(openTime, [100, 101, 99, 100, 1], sym), interval: '1h' as const, ts, recvTs: ts };
  };
  const replayWatching = (events: MarketEvent[], watched: { sym: string; interval: '5m' | '1h' }[]) =>
    replayHistory(
      once(events),
      { periodMs: 120 * MIN, alignMs: 60 * MIN },
      { from: T0 - 60 * MIN, until: UNTIL, syms: [BTC, ETH], watched: () => watched },
      () => {},
      () => false,
    );

  it('does not count 1h bars as covering a 5m watch: they build no 5m bar', async () => {
    // The hour before T0 in a 1h bar of BTC, as from a 1h CSV (the next one is the live feed's).
    const coverage = await replayWatching([hourBar(0, BTC)], [{ sym: BTC, interval: '5m' }]);
    expect(coverage.uncovered).toEqual([BTC]);
    expect(coverage.complete).toBe(false);
  });

  it('names the interval left uncovered when another watched one of the sym is covered', async () => {
    const coverage = await replayWatching(
      [hourBar(0, BTC)],
      [
        { sym: BTC, interval: '1h' },
        { sym: BTC, interval: '5m' },
      ],
    );
    expect(coverage.uncovered).toEqual([`${BTC} 5m`]);
    expect(coverage.short).toEqual([]);
  });

  it('counts 1m bars as covering 5m and 1h watches', async () => {
    const events = Array.from({ length: 120 }, (_, m) => bar(m - 60, BTC));
    const coverage = await replayWatching(events, [
      { sym: BTC, interval: '1h' },
      { sym: BTC, interval: '5m' },
    ]);
    expect(coverage).toMatchObject({ uncovered: [], short: [], complete: true });
  });
});
