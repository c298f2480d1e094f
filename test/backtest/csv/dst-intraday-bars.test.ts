import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { parseOhlcvCsv } from '../../../backtest/csv/index.ts';
import { BAR_INTERVAL_MS, type BarInterval } from '../../../core/model/index.ts';

/** 15m bars written in local time without an offset from 00:00 to 03:45, the 02:xx hour twice. */
function berlinFallBack15m(): string {
  const rows = ['time,open,high,low,close,volume'];
  let price = 100;
  const add = (hh: number, mm: number) => {
    const t = `2025-10-26 ${String(hh).padStart(2, '0')}:${String(mm).padStart(2, '0')}:00`;
    rows.push(`${t},${price},${price + 1},${price - 1},${price + 0.5},10`);
    price += 1;
  };
  for (const hh of [0, 1, 2]) for (const mm of [0, 15, 30, 45]) add(hh, mm);
  // Clocks go back from 03:00 CEST to 02:00 CET: the 02:xx quarter hours come again.
  for (const mm of [0, 15, 30, 45]) add(2, mm);
  for (const mm of [0, 15, 30, 45]) add(3, mm);
  return rows.join('\n');
}

describe('intraday bars finer than an hour across the repeated daylight-saving hour', () => {
  it('reads the repeated quarter hours as their two occurrences, as it does for hourly bars', () => {
    // 2025-10-26 in Europe/Berlin: 00:00 CEST = 22:00Z the day before; 16 bars of 15 min from
    // 22:00Z to 02:45Z, one every 15 minutes of UTC time, none refused.
    const { bars, interval } = parseOhlcvCsv(berlinFallBack15m(), { zone: 'Europe/Berlin' });
    expect(interval).toBe('15m');
    const start = Date.UTC(2025, 9, 25, 22, 0);
    expect(bars.map((b) => b.openTime)).toEqual(Array.from({ length: 20 }, (_, i) => start + i * 900_000));
  });

  it('with --skip-invalid, keeps the first occurrence at its own UTC times, not an hour late over a hole', () => {
    const { bars, skipped } = parseOhlcvCsv(berlinFallBack15m(), {
      zone: 'Europe/Berlin',
      onInvalidRow: 'skip',
    });
    const utc = bars.map((b) => new Date(b.openTime).toISOString().slice(11, 16));
    // 00:00-00:45Z are the first 02:xx (CEST) quarter hours; they must not be missing.
    expect({ utc: utc.slice(8, 12), skipped: skipped.length }).toEqual({
      utc: ['00:00', '00:15', '00:30', '00:45'],
      skipped: 0,
    });
  });

  it('reads 4h bars written in local time across the spring-forward change (a 3-hour UTC gap)', () => {
    // 2025-03-30 in Europe/Berlin: 00:00 CET (23:00Z), then 04:00 CEST (02:00Z): 3 hours of UTC
    // time hold the 4-hour bar of the short night.
    const rows = ['time,open,high,low,close,volume'];
    for (const day of ['2025-03-29', '2025-03-30', '2025-03-31'])
      for (const hh of ['00', '04', '08', '12', '16', '20'])
        rows.push(`${day} ${hh}:00:00,100,101,99,100,10`);
    const { bars, interval } = parseOhlcvCsv(rows.join('\n'), { zone: 'Europe/Berlin' });
    expect(interval).toBe('4h');
    expect(bars).toHaveLength(18);
  });

  it('still refuses a time going back twice inside the repeated hour, or back outside it', () => {
    const rows = (times: readonly string[]) =>
      ['time,open,high,low,close,volume', ...times.map((t) => `2025-10-26 ${t}:00,100,101,99,100,10`)].join(
        '\n',
      );
    // 02:30 and 02:15 of the first occurrence, 02:00 of the second, then 02:10: back again
    expect(() =>
      parseOhlcvCsv(rows(['01:45', '02:30', '02:45', '02:00', '02:15', '02:10']), { zone: 'Europe/Berlin' }),
    ).toThrow(/bar time goes back in time from line 6; sort the file/);
    // outside the repeated hour a step back stays an unsorted file
    expect(() => parseOhlcvCsv(rows(['04:00', '04:30', '04:15']), { zone: 'Europe/Berlin' })).toThrow(
      /bar time goes back in time from line 3; sort the file/,
    );
  });
});

/** A clock change of a zone: the instant and the intervals a file's local times can still tell apart. */
interface ClockChange {
  readonly zone: string;
  readonly at: number;
  readonly intervals: readonly BarInterval[];
}

const FALL_BACKS: readonly ClockChange[] = [
  { zone: 'Europe/Berlin', at: Date.UTC(2025, 9, 26, 1), intervals: ['1m', '5m', '15m', '1h'] },
  { zone: 'America/New_York', at: Date.UTC(2025, 10, 2, 6), intervals: ['1m', '5m', '15m', '1h'] },
  // luxon reads Sydney's repeated hour at its first occurrence, Berlin's at its second
  { zone: 'Australia/Sydney', at: Date.UTC(2025, 3, 5, 16), intervals: ['1m', '5m', '15m', '1h'] },
  // Lord Howe Island puts its clocks back 30 minutes
  { zone: 'Australia/Lord_Howe', at: Date.UTC(2025, 3, 5, 15), intervals: ['1m', '5m', '15m'] },
];

const SPRING_FORWARDS: readonly ClockChange[] = [
  {
    zone: 'Europe/Berlin',
    at: Date.UTC(2025, 2, 30, 1),
    intervals: ['1h', '4h', '1d'],
  },
  {
    zone: 'America/New_York',
    at: Date.UTC(2025, 2, 9, 7),
    intervals: ['1h', '4h', '1d'],
  },
  {
    zone: 'Australia/Lord_Howe',
    at: Date.UTC(2025, 9, 4, 15, 30),
    intervals: ['1h', '4h', '1d'],
  },
];

const LOCAL = 'yyyy-MM-dd HH:mm:ss';

/** Bar open instants one interval apart from `lead` minutes (rounded down to the grid) before the change to 3 hours after it. */
function instantsAcross(c: ClockChange, interval: BarInterval, lead: number): number[] {
  const ms = BAR_INTERVAL_MS[interval];
  const start = Math.floor((c.at - lead * 60_000) / ms) * ms;
  const instants: number[] = [];
  for (let t = start; t <= c.at + 3 * 3_600_000; t += ms) instants.push(t);
  return instants;
}

/**
 * Local-grid times (midnight-aligned) from two days before the change to two days after, the ones
 * the change skips left out, as a file written in local time holds them.
 */
function localGridAcross(c: ClockChange, interval: BarInterval): string[] {
  const ms = BAR_INTERVAL_MS[interval];
  const day = DateTime.fromMillis(c.at, { zone: c.zone }).startOf('day').minus({ days: 2 });
  const times: string[] = [];
  for (let d = 0; d < 5; d++) {
    const date = day.plus({ days: d });
    for (let local = 0; local < 86_400_000; local += ms) {
      const hour = Math.floor(local / 3_600_000);
      const minute = Math.floor((local % 3_600_000) / 60_000);
      const t = DateTime.fromObject(
        { year: date.year, month: date.month, day: date.day, hour, minute },
        { zone: c.zone },
      );
      if (t.hour === hour && t.minute === minute) times.push(t.toFormat(LOCAL));
    }
  }
  return times;
}

function csvOf(times: readonly string[]): string {
  return [
    'time,open,high,low,close,volume',
    ...times.map((t, i) => `${t},${100 + i},${101 + i},${99 + i},${100 + i},10`),
  ].join('\n');
}

describe('local times without an offset across clock changes, any interval the file can tell apart', () => {
  it('reads bars one interval apart in UTC across the repeated hour as those UTC times', () => {
    const change = fc.constantFrom(...FALL_BACKS).chain((c) =>
      fc.record({
        c: fc.constant(c),
        interval: fc.constantFrom(...c.intervals),
        lead: fc.integer({ min: 1, max: 180 }),
      }),
    );
    fc.assert(
      fc.property(change, ({ c, interval, lead }) => {
        const instants = instantsAcross(c, interval, lead);
        const times = instants.map((t) => DateTime.fromMillis(t, { zone: c.zone }).toFormat(LOCAL));
        const { bars, skipped } = parseOhlcvCsv(csvOf(times), { zone: c.zone, interval });
        expect(skipped).toEqual([]);
        expect(bars.map((b) => b.openTime)).toEqual(instants);
      }),
      { numRuns: 60 },
    );
  });

  it('reads bars on the local grid across the short night of spring-forward, none refused', () => {
    const change = fc
      .constantFrom(...SPRING_FORWARDS)
      .chain((c) => fc.record({ c: fc.constant(c), interval: fc.constantFrom(...c.intervals) }));
    fc.assert(
      fc.property(change, ({ c, interval }) => {
        const times = localGridAcross(c, interval);
        const { bars } = parseOhlcvCsv(csvOf(times), { zone: c.zone, interval });
        expect(bars).toHaveLength(times.length);
      }),
      { numRuns: 60 },
    );
  });
});

describe('a newest-first file across clock changes', () => {
  /** The file of `times` oldest first, and the same rows newest first. */
  const rowsOf = (times: readonly string[]): { oldest: string; newest: string } => {
    const rows = csvOf(times).split('\n');
    const [header, ...body] = rows;
    return { oldest: rows.join('\n'), newest: [header, ...body.reverse()].join('\n') };
  };
  const barsOf = (text: string, zone: string, interval: BarInterval) => {
    const { bars, skipped } = parseOhlcvCsv(text, { zone, interval, onInvalidRow: 'skip' });
    return {
      bars: bars.map(({ openTime, open, high, low, close, volume }) => ({
        openTime,
        open,
        high,
        low,
        close,
        volume,
      })),
      skipped: skipped.length,
    };
  };

  it('imports the same bars as the oldest-first file, across the repeated hour or the short night', () => {
    const fallBack = fc.constantFrom(...FALL_BACKS).chain((c) =>
      fc.record({
        c: fc.constant(c),
        interval: fc.constantFrom(...c.intervals),
        lead: fc.integer({ min: 1, max: 180 }),
      }),
    );
    const springForward = fc
      .constantFrom(...SPRING_FORWARDS)
      .chain((c) => fc.record({ c: fc.constant(c), interval: fc.constantFrom(...c.intervals) }));
    const file = fc.oneof(
      fallBack.map(({ c, interval, lead }) => ({
        c,
        interval,
        times: instantsAcross(c, interval, lead).map((t) =>
          DateTime.fromMillis(t, { zone: c.zone }).toFormat(LOCAL),
        ),
      })),
      springForward.map(({ c, interval }) => ({ c, interval, times: localGridAcross(c, interval) })),
    );
    fc.assert(
      fc.property(file, ({ c, interval, times }) => {
        const { oldest, newest } = rowsOf(times);
        const expected = barsOf(oldest, c.zone, interval);
        expect(expected).toMatchObject({ bars: { length: times.length }, skipped: 0 });
        expect(barsOf(newest, c.zone, interval)).toEqual(expected);
      }),
      { numRuns: 80 },
    );
  });
});
