import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { parseOhlcvCsv } from '../../../backtest/csv/index.ts';
import { BAR_INTERVAL_MS, type BarInterval } from '../../../core/model/index.ts';

const HEADER = 'time,open,high,low,close,volume';
const LOCAL = 'yyyy-MM-dd HH:mm';

/** A file of `times` written without an offset, each bar's prices its own. */
function csvOf(times: readonly string[]): string {
  return [HEADER, ...times.map((t, i) => `${t},${100 + i},${101 + i},${99 + i},${100 + i},10`)].join('\n');
}

/** The bars' open times, as UTC `MM-ddTHH:mm`. */
function utcOpens(times: readonly string[], zone: string, interval?: BarInterval): string[] {
  const { bars } = parseOhlcvCsv(csvOf(times), { zone, ...(interval === undefined ? {} : { interval }) });
  return bars.map((b) => new Date(b.openTime).toISOString().slice(5, 16));
}

describe('a lone bar at the repeated wall clock of a fall-back, in bars coarser than the clock change', () => {
  it('puts a 4h bar written at 01:00 in London on its neighbours’ 4h grid, at the first occurrence', () => {
    // 2024-10-27 in Europe/London: 02:00 BST goes back to 01:00 GMT at 01:00Z. UTC-aligned 4h bars
    // written in London time: 00:00Z is 01:00 BST, the hour's first occurrence, and 04:00Z is 04:00 GMT.
    const times = [
      '2024-10-26 17:00',
      '2024-10-26 21:00',
      '2024-10-27 01:00',
      '2024-10-27 04:00',
      '2024-10-27 08:00',
    ];
    expect(utcOpens(times, 'Europe/London')).toEqual([
      '10-26T16:00',
      '10-26T20:00',
      '10-27T00:00',
      '10-27T04:00',
      '10-27T08:00',
    ]);
  });

  it('puts a 4h bar written at 01:00 in New York at the occurrence its neighbours’ grid holds', () => {
    // 2024-11-03 in America/New_York: 02:00 EDT goes back to 01:00 EST at 06:00Z.
    // 4h bars on the 17:00-EDT (21:00Z) grid: 05:00Z is 01:00 EDT, the first occurrence.
    const firstOnGrid = [
      '2024-11-02 17:00',
      '2024-11-02 21:00',
      '2024-11-03 01:00',
      '2024-11-03 04:00',
      '2024-11-03 08:00',
    ];
    expect(utcOpens(firstOnGrid, 'America/New_York', '4h')).toEqual([
      '11-02T21:00',
      '11-03T01:00',
      '11-03T05:00',
      '11-03T09:00',
      '11-03T13:00',
    ]);
    // On the 18:00-EDT (22:00Z) grid 06:00Z is 01:00 EST, the second occurrence, where it stays.
    const secondOnGrid = [
      '2024-11-02 18:00',
      '2024-11-02 22:00',
      '2024-11-03 01:00',
      '2024-11-03 05:00',
      '2024-11-03 09:00',
    ];
    expect(utcOpens(secondOnGrid, 'America/New_York', '4h')).toEqual([
      '11-02T22:00',
      '11-03T02:00',
      '11-03T06:00',
      '11-03T10:00',
      '11-03T14:00',
    ]);
  });

  it('puts a 1h bar at Lord Howe Island’s repeated half hour on the hourly grid', () => {
    // 2025-04-06: 02:00 (+11) goes back to 01:30 (+10:30) at 15:00Z; 15:00Z is 01:30's second occurrence.
    const times = [
      '2025-04-06 00:00',
      '2025-04-06 01:00',
      '2025-04-06 01:30',
      '2025-04-06 02:30',
      '2025-04-06 03:30',
    ];
    expect(utcOpens(times, 'Australia/Lord_Howe')).toEqual([
      '04-05T13:00',
      '04-05T14:00',
      '04-05T15:00',
      '04-05T16:00',
      '04-05T17:00',
    ]);
  });

  it('puts a daily bar written at 01:00 London time on the midnight-UTC grid', () => {
    const times = [
      '2024-10-25 01:00',
      '2024-10-26 01:00',
      '2024-10-27 01:00',
      '2024-10-28 00:00',
      '2024-10-29 00:00',
    ];
    expect(utcOpens(times, 'Europe/London')).toEqual([
      '10-25T00:00',
      '10-26T00:00',
      '10-27T00:00',
      '10-28T00:00',
      '10-29T00:00',
    ]);
  });

  it('places it the same in a newest-first file', () => {
    const times = [
      '2024-10-26 17:00',
      '2024-10-26 21:00',
      '2024-10-27 01:00',
      '2024-10-27 04:00',
      '2024-10-27 08:00',
    ];
    const oldest = parseOhlcvCsv(csvOf(times), { zone: 'Europe/London' });
    const [header, ...rows] = csvOf(times).split('\n');
    const newest = parseOhlcvCsv([header, ...rows.reverse()].join('\n'), { zone: 'Europe/London' });
    expect(newest.bars.map((b) => b.openTime)).toEqual(oldest.bars.map((b) => b.openTime));
  });
});

describe('hourly bars across a fall-back of a whole hour, where both occurrences lie on the grid', () => {
  it('reads the repeated 01:00 written twice as its two occurrences, first the earlier, in London and New York', () => {
    const times = (day: string) => [`${day} 00:00`, `${day} 01:00`, `${day} 01:00`, `${day} 02:00`];
    expect(utcOpens(times('2024-10-27'), 'Europe/London')).toEqual([
      '10-26T23:00',
      '10-27T00:00',
      '10-27T01:00',
      '10-27T02:00',
    ]);
    expect(utcOpens(times('2024-11-03'), 'America/New_York')).toEqual([
      '11-03T04:00',
      '11-03T05:00',
      '11-03T06:00',
      '11-03T07:00',
    ]);
  });

  it('keeps a lone 01:00, whose other occurrence is missing, at the later occurrence as before', () => {
    // Either occurrence is an hour on the grid; nothing around the bar says which it was.
    const times = (day: string) => [`${day} 00:00`, `${day} 01:00`, `${day} 02:00`, `${day} 03:00`];
    expect(utcOpens(times('2024-10-27'), 'Europe/London', '1h')).toEqual([
      '10-26T23:00',
      '10-27T01:00',
      '10-27T02:00',
      '10-27T03:00',
    ]);
    expect(utcOpens(times('2024-11-03'), 'America/New_York', '1h')).toEqual([
      '11-03T04:00',
      '11-03T06:00',
      '11-03T07:00',
      '11-03T08:00',
    ]);
  });
});

describe('a repeated hour in which nothing traded: two identical rows at the repeated wall clock', () => {
  /** Hourly bars with a flat, volume-less bar at the repeated wall clock, written twice. */
  const flatRepeat = (day: string, hour: string): string =>
    [
      HEADER,
      `${day} 00:00,100,101,99,100,10`,
      `${day} ${hour},100,100,100,100,0`,
      `${day} ${hour},100,100,100,100,0`,
      `${day} 03:00,100,102,99,101,10`,
    ].join('\n');
  const opensOf = (text: string, zone: string) => {
    const { bars, skipped } = parseOhlcvCsv(text, { zone });
    return { opens: bars.map((b) => new Date(b.openTime).toISOString().slice(5, 16)), skipped };
  };

  it('keeps both as the two occurrences, where luxon reads the later (London) or the earlier (Sydney)', () => {
    // London: 01:00 BST (00:00Z) and 01:00 GMT (01:00Z) on 2024-10-27.
    expect(opensOf(flatRepeat('2024-10-27', '01:00'), 'Europe/London')).toEqual({
      opens: ['10-26T23:00', '10-27T00:00', '10-27T01:00', '10-27T03:00'],
      skipped: [],
    });
    // Sydney: 02:00 AEDT (15:00Z) and 02:00 AEST (16:00Z) on 2025-04-06.
    expect(opensOf(flatRepeat('2025-04-06', '02:00'), 'Australia/Sydney')).toEqual({
      opens: ['04-05T13:00', '04-05T15:00', '04-05T16:00', '04-05T17:00'],
      skipped: [],
    });
  });

  it('still drops an exact copy of an hourly row outside the repeated hour, and of a 15m row inside it', () => {
    const outside = [
      HEADER,
      '2024-10-27 05:00,100,101,99,100,10',
      '2024-10-27 05:00,100,101,99,100,10',
      '2024-10-27 06:00,100,101,99,100,10',
    ].join('\n');
    expect(opensOf(outside, 'Europe/London')).toEqual({
      opens: ['10-27T05:00', '10-27T06:00'],
      skipped: [{ line: 3, reason: 'an exact copy of line 2' }],
    });
    const inside = [
      HEADER,
      '2024-10-27 00:45,100,101,99,100,10',
      '2024-10-27 01:00,100,101,99,100,10',
      '2024-10-27 01:15,100,100,100,100,0',
      '2024-10-27 01:15,100,100,100,100,0',
      '2024-10-27 01:30,100,101,99,100,10',
    ].join('\n');
    expect(opensOf(inside, 'Europe/London').skipped).toEqual([
      { line: 5, reason: 'an exact copy of line 4' },
    ]);
  });
});

describe('4h bars across a spring-forward, which repeats no wall clock', () => {
  it('reads UTC-aligned 4h bars written in London time as their UTC times', () => {
    // 2025-03-30: 01:00 GMT goes forward to 02:00 BST; 04:00Z is 05:00 BST.
    const times = [
      '2025-03-29 16:00',
      '2025-03-29 20:00',
      '2025-03-30 00:00',
      '2025-03-30 05:00',
      '2025-03-30 09:00',
    ];
    expect(utcOpens(times, 'Europe/London')).toEqual([
      '03-29T16:00',
      '03-29T20:00',
      '03-30T00:00',
      '03-30T04:00',
      '03-30T08:00',
    ]);
  });
});

/** A fall-back of a zone, and the intervals whose grid holds only one of a repeated wall clock's occurrences. */
interface FallBack {
  readonly zone: string;
  readonly at: number;
  readonly intervals: readonly BarInterval[];
}

const FALL_BACKS: readonly FallBack[] = [
  { zone: 'Europe/London', at: Date.UTC(2024, 9, 27, 1), intervals: ['4h', '1d'] },
  { zone: 'America/New_York', at: Date.UTC(2024, 10, 3, 6), intervals: ['4h', '1d'] },
  // luxon reads Sydney's repeated hour at its first occurrence, London's at its second
  { zone: 'Australia/Sydney', at: Date.UTC(2025, 3, 5, 16), intervals: ['4h', '1d'] },
  // Lord Howe Island puts its clocks back 30 minutes, so hourly bars hold one occurrence too
  { zone: 'Australia/Lord_Howe', at: Date.UTC(2025, 3, 5, 15), intervals: ['1h', '4h', '1d'] },
];

describe('a regular grid of UTC bar opens written in local time across a fall-back', () => {
  it('imports as the same UTC instants, oldest or newest first, whatever the grid’s phase', () => {
    const grid = fc.constantFrom(...FALL_BACKS).chain((c) =>
      fc.constantFrom(...c.intervals).chain((interval) =>
        fc.record({
          c: fc.constant(c),
          interval: fc.constant(interval),
          phaseMinutes: fc.integer({ min: 0, max: BAR_INTERVAL_MS[interval] / 60_000 - 1 }),
          before: fc.integer({ min: 3, max: 8 }),
          after: fc.integer({ min: 3, max: 8 }),
        }),
      ),
    );
    fc.assert(
      fc.property(grid, ({ c, interval, phaseMinutes, before, after }) => {
        const ms = BAR_INTERVAL_MS[interval];
        const first = Math.floor((c.at - before * ms) / ms) * ms + phaseMinutes * 60_000;
        const instants = Array.from({ length: before + after }, (_, i) => first + i * ms);
        const times = instants.map((t) => DateTime.fromMillis(t, { zone: c.zone }).toFormat(LOCAL));
        const text = csvOf(times);
        const [header, ...rows] = text.split('\n');
        for (const file of [text, [header, ...rows.reverse()].join('\n')]) {
          const { bars, skipped } = parseOhlcvCsv(file, { zone: c.zone, interval });
          expect(skipped).toEqual([]);
          expect(bars.map((b) => b.openTime)).toEqual(instants);
        }
      }),
      { numRuns: 150 },
    );
  });
});
