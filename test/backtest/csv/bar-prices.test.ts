import { describe, expect, it } from 'vitest';
import { barFrom } from '../../../backtest/csv/bar-prices.ts';
import { CsvImportError, parseOhlcvCsv } from '../../../backtest/csv/index.ts';

describe('bar prices', () => {
  it('refuses a price of 0, naming the column: a backtest would fill at 0', () => {
    expect(barFrom(['0', '0', '0', '0'], '0', undefined, false)).toBe(
      'open "0" is not a price above 0 (missing data written as 0?)',
    );
    expect(barFrom(['10', '11', '0.00', '10'], '5', undefined, false)).toBe(
      'low "0.00" is not a price above 0 (missing data written as 0?)',
    );
  });

  it('keeps a volume of 0 and prices above 0', () => {
    expect(barFrom(['10', '11', '9', '10'], '0', undefined, false)).toEqual({
      open: '10',
      high: '11',
      low: '9',
      close: '10',
      volume: '0',
    });
  });

  it("refuses pandas' fillna(0) row at its line, and --skip-invalid drops it", () => {
    const text =
      'timestamp,open,high,low,close,volume\n0,10,11,9,10,5\n60000,0,0,0,0,0\n120000,10,11,9,10,5\n180000,10,11,9,10,0\n';
    expect(() => parseOhlcvCsv(text, { file: 'x.csv', epochUnit: 'ms' })).toThrow(
      new CsvImportError('x.csv', 3, 'open "0" is not a price above 0 (missing data written as 0?)'),
    );
    const { bars, skipped } = parseOhlcvCsv(text, { epochUnit: 'ms', onInvalidRow: 'skip' });
    expect(bars.map((b) => b.line)).toEqual([2, 4, 5]);
    expect(skipped).toEqual([
      { line: 3, reason: 'open "0" is not a price above 0 (missing data written as 0?)' },
    ]);
  });
});
