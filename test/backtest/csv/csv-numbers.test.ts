import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pointDecimal } from '../../../backtest/csv/csv-numbers.ts';
import { CsvImportError, parseOhlcvCsv } from '../../../backtest/csv/index.ts';

/** USDJPY in a tab file: prices with exactly 3 decimals, volumes grouped with a comma. */
const JPY_TAB = [
  'Date\tOpen\tHigh\tLow\tClose\tVolume',
  '2024-01-02\t151.234\t152.345\t150.123\t151.987\t1,234',
  '2024-01-03\t151.987\t152.500\t151.000\t152.100\t2,345',
].join('\n');

describe('decimal mark', () => {
  it('refuses a file whose cells read both ways (151.234 and 1,234), quoting one of each, until the mark is given', () => {
    expect(() => parseOhlcvCsv(JPY_TAB, { file: 'jpy.tsv' })).toThrow(
      new CsvImportError(
        'jpy.tsv',
        0,
        'the numbers read two ways: "151.234" (line 2) is 151.234 with a decimal point or 151234 with a decimal comma, and "1,234" (line 2) is 1234 or 1.234; pass --decimal-mark point or --decimal-mark comma (decimalMark in a CSV entry)',
      ),
    );
  });

  it('reads the file with the decimal mark given', () => {
    const point = parseOhlcvCsv(JPY_TAB, { decimalMark: 'point' }).bars;
    expect(point.map((b) => [b.open, b.high, b.volume])).toEqual([
      ['151.234', '152.345', '1234'],
      ['151.987', '152.500', '2345'],
    ]);
    const comma = parseOhlcvCsv(
      'Date;Open;High;Low;Close;Volume\n2024-01-02;101,250;101,300;101,200;101,250;1.000\n2024-01-03;101,250;101,300;101,200;101,250;1.000\n',
      { decimalMark: 'comma' },
    ).bars;
    expect(comma.map((b) => [b.open, b.volume])).toEqual([
      ['101.250', '1000'],
      ['101.250', '1000'],
    ]);
  });

  it('reads a comma-separated file quoting "101,250" with --decimal-mark comma, as it refuses it without', () => {
    const european =
      'Date,Open,High,Low,Close,Volume\n2024-01-02,"101,250","101,300","101,200","101,250",1000\n';
    expect(parseOhlcvCsv(european, { decimalMark: 'comma', interval: '1d' }).bars[0]).toMatchObject({
      open: '101.250',
      high: '101.300',
    });
  });

  it('still reads a file where only one reading fits: 0.125 is a decimal point, 1.234 alone a decimal point', () => {
    const small = 'Date\tOpen\tHigh\tLow\tClose\tVolume\n2024-01-02\t0.125\t0.130\t0.120\t0.128\t1,234\n';
    expect(parseOhlcvCsv(small, { interval: '1d' }).bars[0]).toMatchObject({ open: '0.125', volume: '1234' });
    const noCommas =
      'Date\tOpen\tHigh\tLow\tClose\tVolume\n2024-01-02\t151.234\t152.345\t150.123\t151.987\t1234\n';
    expect(parseOhlcvCsv(noCommas, { interval: '1d' }).bars[0]).toMatchObject({
      open: '151.234',
      volume: '1234',
    });
  });

  it('reads decimal-comma numbers of four or more integer digits written without grouping dots', () => {
    const ungrouped =
      'Date;Open;High;Low;Close;Volume\n2024-01-02;1234,25;1240,5;1230,75;1235,5;95000,25\n2024-01-03;1235,5;1236;1234;1235;95000\n';
    expect(
      parseOhlcvCsv(ungrouped, { decimalMark: 'comma', interval: '1d' }).bars.map((b) => [b.open, b.volume]),
    ).toEqual([
      ['1234.25', '95000.25'],
      ['1235.5', '95000'],
    ]);
    expect(parseOhlcvCsv(ungrouped, { interval: '1d' }).bars[0]).toMatchObject({ open: '1234.25' });
  });

  it('still refuses grouping dots out of place in a decimal-comma file', () => {
    for (const cell of ['12.34,5', '1.2345,6', '1234.567,5'])
      expect(() =>
        parseOhlcvCsv(`Date;Open;High;Low;Close\n2024-01-02;${cell};2;1;1,5\n`, { decimalMark: 'comma' }),
      ).toThrow(`open ${JSON.stringify(cell)} is not a non-negative number`);
  });

  it('reads any decimal comma, grouped or not, as the same decimal point', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.stringMatching(/^\d{1,8}$/), (int, frac) => {
        const grouped = int.toString().replace(/\B(?=(\d{3})+$)/g, '.');
        expect(pointDecimal(`${int},${frac}`)).toBe(`${int}.${frac}`);
        expect(pointDecimal(`${grouped},${frac}`)).toBe(`${int}.${frac}`);
      }),
    );
  });
});
