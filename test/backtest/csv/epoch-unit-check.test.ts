import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvImportError, parseOhlcvCsv } from '../../../backtest/csv/index.ts';
import { BAR_INTERVAL_MS, type BarInterval } from '../../../core/model/index.ts';

const JAN_2024 = Date.UTC(2024, 0, 1);

/** Five bars `step` ms apart from `start`, their times written as epoch numbers by `write`. */
function epochFile(start: number, step: number, write: (ms: number) => string): string {
  return ['t,o,h,l,c', ...[0, 1, 2, 3, 4].map((i) => `${write(start + i * step)},1,1,1,1`)].join('\n');
}

describe('a wrong --epoch-unit', () => {
  it('is named with the unit the times fit, not as bars to resample', () => {
    const millis = epochFile(JAN_2024, 60_000, String);
    expect(() => parseOhlcvCsv(millis, { file: 'ms.csv', epochUnit: 's' })).toThrow(
      new CsvImportError(
        'ms.csv',
        0,
        'the times, read as seconds (--epoch-unit s), are mostly 1000 minutes apart (60000000 ms) in the year 55969: as milliseconds they are 1m bars from 2024-01-01T00:00:00.000Z; pass --epoch-unit ms (epochUnit in a CSV entry)',
      ),
    );
    const seconds = epochFile(JAN_2024, 3_600_000, (ms) => String(ms / 1000));
    expect(() => parseOhlcvCsv(seconds, { file: 's.csv', epochUnit: 'ms', interval: '1h' })).toThrow(
      new CsvImportError(
        's.csv',
        0,
        'the times, read as milliseconds (--epoch-unit ms), are mostly 3600 ms apart in the year 1970: as seconds they are 1h bars from 2024-01-01T00:00:00.000Z; pass --epoch-unit s (epochUnit in a CSV entry)',
      ),
    );
  });

  it('is named for any interval, given or not, between seconds, milliseconds and microseconds', () => {
    const units = { s: 3, ms: 0, us: -3 } as const;
    const pairs = fc.constantFrom(['ms', 's'], ['s', 'ms'], ['us', 'ms'], ['ms', 'us']) as fc.Arbitrary<
      [keyof typeof units, keyof typeof units]
    >;
    const intervals = Object.keys(BAR_INTERVAL_MS) as BarInterval[];
    fc.assert(
      fc.property(
        pairs,
        fc.constantFrom(...intervals),
        fc.integer({ min: 0, max: 10_000 }),
        fc.boolean(),
        ([written, given], interval, day, giveInterval) => {
          const step = BAR_INTERVAL_MS[interval];
          const start = Date.UTC(2000, 0, 1) + day * BAR_INTERVAL_MS['1d'];
          const text = epochFile(start, step, (ms) =>
            units[written] >= 0 ? String(ms / 10 ** units[written]) : `${ms}${'0'.repeat(-units[written])}`,
          );
          expect(() =>
            parseOhlcvCsv(text, { epochUnit: given, ...(giveInterval ? { interval } : {}) }),
          ).toThrow(
            `they are ${interval} bars from ${new Date(start).toISOString()}; pass --epoch-unit ${written}`,
          );
        },
      ),
    );
  });

  it('leaves a file alone whose times fit as read, in the right unit or in January 1970', () => {
    const millis = epochFile(JAN_2024, 60_000, String);
    expect(parseOhlcvCsv(millis, { epochUnit: 'ms' }).interval).toBe('1m');
    expect(parseOhlcvCsv(epochFile(0, 60_000, String), { epochUnit: 'ms' }).bars).toHaveLength(5);
  });
});
