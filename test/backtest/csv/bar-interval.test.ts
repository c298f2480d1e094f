import { describe, expect, it } from 'vitest';
import { parseOhlcvCsv } from '../../../backtest/csv/index.ts';

const DAY = 86_400_000;

/** A CSV of `count` bars starting at 2024-01-01 UTC, `stepMs` apart, skipping the times `skip` rejects. */
function csvOf(count: number, stepMs: number, skip: (ts: number) => boolean = () => false): string {
  const rows = ['timestamp,open,high,low,close,volume'];
  for (let ts = Date.UTC(2024, 0, 1); rows.length <= count; ts += stepMs)
    if (!skip(ts)) rows.push(`${ts},10,11,9,10,5`);
  return rows.join('\n');
}

describe('bar interval', () => {
  it('refuses weekly bars passed as --interval 1d, naming their spacing (each would release its week 6 days early)', () => {
    expect(() => parseOhlcvCsv(csvOf(10, 7 * DAY), { file: 'wk.csv', interval: '1d' })).toThrow(
      /^wk\.csv: bars are mostly 7 days apart \(604800000 ms\), 7 times the 1d interval given: .*resample the file to one of Keel's intervals \(1m, 5m, 15m, 1h, 4h, 1d\)/,
    );
  });

  it('refuses 30m bars passed as --interval 15m, and names the interval to pass for 1h bars passed as 15m', () => {
    expect(() => parseOhlcvCsv(csvOf(10, 1_800_000), { interval: '15m' })).toThrow(
      /bars are mostly 30 minutes apart \(1800000 ms\), 2 times the 15m interval given: .*resample/,
    );
    expect(() => parseOhlcvCsv(csvOf(10, 3_600_000), { interval: '15m' })).toThrow(
      /bars are mostly 1 hour apart \(3600000 ms\), 4 times the 15m interval given: .*pass --interval 1h/,
    );
  });

  it('takes daily equity bars with weekend and holiday gaps as --interval 1d: the most common gap decides', () => {
    const weekday = (ts: number) => [0, 6].includes(new Date(ts).getUTCDay()) || ts === Date.UTC(2024, 0, 15);
    const { bars, interval } = parseOhlcvCsv(csvOf(30, DAY, weekday), { interval: '1d' });
    expect(interval).toBe('1d');
    expect(bars).toHaveLength(30);
  });

  it('takes sparse 1m bars (a thinly traded pair: mostly 2 minutes apart, some 1 minute) as --interval 1m', () => {
    const sparse = (ts: number) => (ts / 60_000) % 5 === 1 || (ts / 60_000) % 5 === 3;
    const { bars, interval } = parseOhlcvCsv(csvOf(20, 60_000, sparse), { interval: '1m' });
    expect(interval).toBe('1m');
    expect(bars).toHaveLength(20);
  });

  it('says which intervals Keel has and to resample first when no interval fits the detected spacing', () => {
    let message = '';
    try {
      parseOhlcvCsv(csvOf(10, 7 * DAY), { file: 'wk.csv' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(
      "wk.csv: bars are mostly 7 days apart (604800000 ms), which is none of Keel's intervals (1m, 5m, 15m, 1h, 4h, 1d): resample the file to one of them first",
    );
  });
});
