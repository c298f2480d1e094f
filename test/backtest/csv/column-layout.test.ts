import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvImportError, looksLikeHeader, parseOhlcvCsv } from '../../../backtest/csv/index.ts';

/** A header-less 1m file whose first bar has a NaN volume, in the decimal-comma style of `cell`. */
const NAN_FIRST = '1704067200000,10,11,9,10,NaN\n1704067260000,10,11,9,10,5\n';
const DECIMAL_COMMA_FIRST = '1704067200000;10,5;11;9;10;5\n1704067260000;10;11;9;10;5\n';

describe('header detection', () => {
  it('takes no row of numbers in any style the importer reads, nor of empty values, for a header', () => {
    const digits = fc.string({ unit: fc.constantFrom('0', '1', '5', '9'), minLength: 1, maxLength: 4 });
    const number = fc
      .tuple(
        fc.constantFrom('', '-', '+', '$'),
        digits,
        fc.constantFrom('', '.', ','),
        fc.constantFrom('', '5', '25', '125'),
        fc.constantFrom('', 'e5', 'E-3', 'K', 'M', '%'),
      )
      .map(
        ([sign, whole, mark, fraction, suffix]) =>
          `${sign}${whole}${mark === '' ? '' : mark + (fraction || '0')}${suffix}`,
      );
    const cell = fc.oneof(
      number,
      fc.constantFrom('', 'NaN', 'nan', 'null', 'N/A', 'na', '-', '09:30', '1.234,5', '1,234.5'),
    );
    fc.assert(
      fc.property(fc.string(), fc.array(cell, { minLength: 1, maxLength: 8 }), (time, rest) => {
        expect(looksLikeHeader([time, ...rest])).toBe(false);
      }),
    );
    expect(looksLikeHeader(['Date', 'Open', 'High', 'Low', 'Close'])).toBe(true);
    expect(looksLikeHeader(['', 'Open', 'High', 'Low', 'Close'])).toBe(true);
    expect(looksLikeHeader(['Date', 'Price', 'Open', 'High', 'Low', 'Vol.', 'Change %'])).toBe(true);
  });

  it('reads a header-less file whose first bar has a NaN or a decimal comma as bars, not a header', () => {
    const nan = parseOhlcvCsv(NAN_FIRST);
    expect(nan.layout.hasHeader).toBe(false);
    expect(nan.bars.map((b) => b.volume)).toEqual(['0', '5']);
    const comma = parseOhlcvCsv(DECIMAL_COMMA_FIRST);
    expect(comma.layout.hasHeader).toBe(false);
    expect(comma.bars.map((b) => b.open)).toEqual(['10.5', '10']);
  });

  it('reads the first row as the options say, and an error about it says what was assumed and how to say otherwise', () => {
    const letters = 'x,p,q,r,s\n1704067200000,10,11,9,10\n1704067260000,10,11,9,10\n';
    expect(() => parseOhlcvCsv(letters, { file: 'h.csv' })).toThrow(
      new CsvImportError(
        'h.csv',
        1,
        'header "x,p,q,r,s" has no time, open, high, low, close column (expected e.g. timestamp,open,high,low,close,volume) (the first row was taken as a header, as a field after its first is not a number: pass --no-header, header: false in a CSV entry, if the file has none)',
      ),
    );
    expect(() => parseOhlcvCsv(letters, { file: 'h.csv', header: false })).toThrow(
      new CsvImportError(
        'h.csv',
        1,
        'time "x" is not a time Keel reads (epoch, ISO 8601 or a date): pass its layout with --time-format, e.g. --time-format "dd.MM.yyyy HH:mm" for 31.12.2024 23:59',
      ),
    );
    const skipped = parseOhlcvCsv(letters, { header: false, onInvalidRow: 'skip' });
    expect(skipped.bars).toHaveLength(2);
    expect(skipped.skipped.map((row) => row.line)).toEqual([1]);

    const numbered = 'when,10,11,9,10\n1704067200000,10,11,9,10\n';
    expect(() => parseOhlcvCsv(numbered, { file: 'n.csv' })).toThrow(
      new CsvImportError(
        'n.csv',
        1,
        'time "when" is not a time Keel reads (epoch, ISO 8601 or a date): pass its layout with --time-format, e.g. --time-format "dd.MM.yyyy HH:mm" for 31.12.2024 23:59 (the first row was read as a bar, as its fields after the first are numbers: pass --header, header: true in a CSV entry, if it is a header)',
      ),
    );
    expect(() => parseOhlcvCsv('1,2,3,4\n', { file: 'n.csv' })).toThrow(
      new CsvImportError(
        'n.csv',
        1,
        'a file without a header needs at least time,open,high,low,close; the first row has 4 field(s) (the first row was read as a bar, as its fields after the first are numbers: pass --header, header: true in a CSV entry, if it is a header)',
      ),
    );
    const forced = 'timestamp,1,2,3,4\n1704067200000,10,11,9,10\n1704067260000,10,11,9,10\n';
    expect(() => parseOhlcvCsv(forced, { file: 'f.csv', header: true })).toThrow(
      /^f\.csv:1: header "timestamp,1,2,3,4" has no open, high, low, close column \(expected e\.g\. timestamp,open,high,low,close,volume\)$/,
    );
  });
});
