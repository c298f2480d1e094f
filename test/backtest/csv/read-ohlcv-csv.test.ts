import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readOhlcvCsvBars } from '../../../backtest/csv/index.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const aTempDir = tempDirsRemovedAfterAll('keel-csv-size-');

describe('CSV size', () => {
  it('refuses a file larger than Keel reads whole, naming its size and the limit, not "Invalid string length"', async () => {
    const input = join(aTempDir(), 'big.csv');
    writeFileSync(input, `timestamp,open,high,low,close,volume\n${'0,1,1,1,1,1\n'.repeat(200_000)}`);
    await expect(readOhlcvCsvBars({ input, sym: 'US_EQUITY_SPY' }, 1_000_000)).rejects.toThrow(
      `${input}: is 2.4 MB, more than the 1.0 MB Keel reads of a CSV (it is read whole): split it, by date, into smaller files and import each, or name each in backtest.recordings`,
    );
  });
});
