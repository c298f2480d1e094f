import { describe, expect, it } from 'vitest';
import { CsvImportError, parseOhlcvCsv } from '../../../backtest/csv/index.ts';

describe('--adjust without an Adj Close column', () => {
  it('is refused at the header: the prices would stay unadjusted while the recording says adjusted', () => {
    const text = 'Date,Open,High,Low,Close,Volume\n2024-01-02,10,11,9,10,5\n2024-01-03,10,11,9,10,5\n';
    expect(() => parseOhlcvCsv(text, { file: 'stooq.csv', adjust: true })).toThrow(
      new CsvImportError(
        'stooq.csv',
        1,
        '--adjust (adjust: true) scales prices by Adj Close / Close, but header "Date,Open,High,Low,Close,Volume" has no Adj Close column: leave --adjust out, or export the file with Adj Close',
      ),
    );
  });

  it('is refused in a file without a header, which has no Adj Close column either', () => {
    expect(() =>
      parseOhlcvCsv('0,10,11,9,10,5\n60000,10,11,9,10,5\n', { file: 'x.csv', adjust: true }),
    ).toThrow(
      'x.csv:1: --adjust (adjust: true) scales prices by Adj Close / Close, but a file without a header has no Adj Close column: leave --adjust out, or export the file with Adj Close',
    );
  });

  it('adjusts a file with Adj Close as before', () => {
    const text =
      'Date,Open,High,Low,Close,Adj Close,Volume\n2024-01-02,10,11,9,10,5,7\n2024-01-03,10,11,9,10,5,7\n';
    expect(parseOhlcvCsv(text, { adjust: true }).bars[0]).toMatchObject({
      open: '5',
      high: '5.5',
      low: '4.5',
    });
  });
});
