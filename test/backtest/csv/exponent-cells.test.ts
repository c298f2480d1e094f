import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalText } from '../../../backtest/csv/csv-numbers.ts';
import { keelChild } from '../../kit/keel-child-process.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const tempDir = tempDirsRemovedAfterEach('keel-sec-csv-');

describe('an exponent cell', () => {
  it('is refused when its exponent is absurd (1e400 would be written out as 401 digits)', () => {
    expect(['1e400', '1e31', '1e-31', '1e999999999', '2.5E+0000000000000000040'].map(decimalText)).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it('is written out exactly up to 30 either way, as before', () => {
    expect(['1e30', '1.5e-30', '-2.5E3', '+1e+2', '3e00'].map(decimalText)).toEqual([
      `1${'0'.repeat(30)}`,
      `0.${'0'.repeat(29)}15`,
      '-2500',
      '100',
      '3',
    ]);
    expect(['-5', '5.', '.5'].map(decimalText)).toEqual(['-5', '5', '0.5']);
  });

  it('never gives more digits than its text plus 30 (property)', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        const text = String(value);
        const plain = decimalText(text);
        if (plain !== null) expect(plain.length).toBeLessThanOrEqual(text.length + 31);
      }),
    );
  });
});

describe('a downloaded OHLCV CSV with an exponent cell', () => {
  it('keel import-csv refuses 1e999999999 at its line, like any invalid cell, and writes no recording (not a billion zeros)', () => {
    const dir = tempDir();
    const csv = join(dir, 'bars.csv');
    const out = join(dir, 'bars.jsonl');
    writeFileSync(
      csv,
      'Date,Open,High,Low,Close,Volume\n2024-01-02,100,101,99,100.5,1000\n2024-01-03,100.5,1e999999999,99,100,1000\n2024-01-04,100,101,99,100.5,1000\n',
    );
    const run = keelChild(['import-csv', csv, '--sym', 'BINANCE_PERP_BTC_USDT', '--out', out]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/line 3|:3\b/);
    expect(existsSync(out)).toBe(false);
  }, 120_000);
});
