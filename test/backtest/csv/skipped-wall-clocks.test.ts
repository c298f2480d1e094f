import { describe, expect, it } from 'vitest';
import { CsvImportError, parseOhlcvCsv } from '../../../backtest/csv/index.ts';

function csvOf(times: readonly string[]): string {
  return [
    'time,open,high,low,close,volume',
    ...times.map((t, i) => `${t},${100 + i},${101 + i},${99 + i},${100 + i},10`),
  ].join('\n');
}

const BERLIN_SPRING_FORWARD = ['01:00', '01:30', '02:30', '03:00', '03:30'].map((t) => `2024-03-31 ${t}:00`);

describe('a local time the clocks skip', () => {
  it('is refused naming the time, its line and the zone, not as a step back in time', () => {
    expect(() =>
      parseOhlcvCsv(csvOf(BERLIN_SPRING_FORWARD), { file: 'b.csv', zone: 'Europe/Berlin' }),
    ).toThrow(
      new CsvImportError(
        'b.csv',
        4,
        'time "2024-03-31 02:30:00" does not exist in Europe/Berlin: its clocks go forward from 2024-03-31 02:00 to 03:00; if the file\'s times are in another zone, pass it with --zone (zone in a CSV entry)',
      ),
    );
  });

  it('is refused where luxon would silently read it an hour on, as with --time-format', () => {
    expect(() =>
      parseOhlcvCsv(csvOf(['2024-03-10 01:00', '2024-03-10 02:00', '2024-03-10 04:00', '2024-03-10 05:00']), {
        zone: 'America/New_York',
        interval: '1h',
      }),
    ).toThrow(
      /^<csv>:3: time "2024-03-10 02:00" does not exist in America\/New_York: its clocks go forward from 2024-03-10 02:00 to 03:00;/,
    );
    expect(() =>
      parseOhlcvCsv(csvOf(['06.10.2024 01:30', '06.10.2024 02:00', '06.10.2024 02:30']), {
        zone: 'Australia/Lord_Howe',
        timeFormat: 'dd.MM.yyyy HH:mm',
      }),
    ).toThrow(
      /^<csv>:3: time "06\.10\.2024 02:00" does not exist in Australia\/Lord_Howe: its clocks go forward from 2024-10-06 02:00 to 02:30;/,
    );
  });

  it('is skipped with --skip-invalid, the bars around it kept', () => {
    const quarters = ['01:00', '01:15', '01:30', '01:45', '02:15', '03:00', '03:15'];
    const { bars, skipped } = parseOhlcvCsv(csvOf(quarters.map((t) => `2024-03-31 ${t}:00`)), {
      zone: 'Europe/Berlin',
      onInvalidRow: 'skip',
    });
    expect(bars.map((b) => b.openTime)).toEqual(
      [0, 15, 30, 45, 60, 75].map((m) => Date.UTC(2024, 2, 31, 0, m)),
    );
    expect(skipped.map((row) => row.line)).toEqual([6]);
  });

  it('is no problem written with its offset, nor as a date alone or a midnight the clocks skip (the day starts later)', () => {
    const withOffset = parseOhlcvCsv(
      csvOf(['2024-03-31T01:30:00+01:00', '2024-03-31T02:30:00+01:00', '2024-03-31T04:30:00+02:00']),
      { zone: 'Europe/Berlin', interval: '1h' },
    );
    expect(withOffset.bars.map((b) => b.openTime)).toEqual(
      [0, 1, 2].map((h) => Date.UTC(2024, 2, 31, h, 30)),
    );
    // America/Sao_Paulo put its clocks forward at midnight on 2018-11-04.
    const days = ['2018-11-02', '2018-11-03', '2018-11-04', '2018-11-05', '2018-11-06', '2018-11-07'];
    for (const times of [days, days.map((d) => `${d} 00:00`)])
      expect(
        parseOhlcvCsv(csvOf(times), { zone: 'America/Sao_Paulo', interval: '1d' }).bars[2]?.openTime,
      ).toBe(Date.UTC(2018, 10, 4, 3));
  });
});
