import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../../config/cli/index.ts';
import { keelInProcess } from '../../../kit/keel-in-process.ts';
import { tempDirsRemovedAfterEach } from '../../../kit/temp-dirs.ts';

const tempDir = tempDirsRemovedAfterEach('sweep-out-whole-');
const EXAMPLE = 'config/examples/sma-cross-backtest.yaml';

describe('keel sweep --out', () => {
  it('leaves the previous table whole when writing the new one fails (exit 1)', async () => {
    const dir = tempDir();
    const csv = join(dir, 'grid.csv');
    const previous = 'strategies.0.params.fast,totalReturn\n3,0.1\n5,0.2\n';
    writeFileSync(csv, previous);
    // A directory where the table is written before it replaces the file: the write fails.
    mkdirSync(join(dir, `.${basename(csv)}.${process.pid}.partial`));
    const run = await keelInProcess([
      'sweep',
      EXAMPLE,
      '--grid',
      'strategies.0.params.fast=3',
      '--metric',
      'totalReturn',
      '--workers',
      '1',
      '--out',
      csv,
    ]);
    expect(run.code).toBe(EXIT.RUNTIME_FAILURE);
    expect(run.stderr).toMatch(/\n✖ keel sweep: cannot write \S*grid\.csv: EISDIR/);
    expect(readFileSync(csv, 'utf8')).toBe(previous);
    expect(readdirSync(dir).sort()).toEqual([`.${basename(csv)}.${process.pid}.partial`, 'grid.csv']);
  }, 120_000);
});
