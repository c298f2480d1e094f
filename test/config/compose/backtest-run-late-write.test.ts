import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../config/cli/index.ts';
import { keelInProcess } from '../../kit/keel-in-process.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const tempDir = tempDirsRemovedAfterEach('keel-late-write-');

describe('a backtest whose report cannot be written at its end', () => {
  it('prints its summary, keeps the result JSON and CSVs, and exits 1 naming what was not written', async () => {
    const dir = tempDir();
    const json = join(dir, 'r.json');
    const html = join(dir, 'r.html');
    // A directory stands where this process stages the HTML report (`.r.html.<pid>.partial`): the
    // up-front check (its own probe file) passes, and writing the report fails after the run.
    mkdirSync(join(dir, `.r.html.${process.pid}.partial`));
    const run = await keelInProcess([
      'backtest',
      'config/examples/sma-cross-backtest.yaml',
      '--no-progress',
      '--set',
      `report.json=${json}`,
      '--set',
      `report.html=${html}`,
    ]);
    expect(run.code).toBe(EXIT.RUNTIME_FAILURE);
    expect(run.stdout).toContain(`  result: ${json}`);
    expect(run.stdout).not.toContain('  report: ');
    expect(run.stderr).toMatch(
      /✖ keel backtest .*: cannot write .*r\.html: EISDIR.*; not written: .*r\.html\n$/,
    );
    expect([existsSync(json), existsSync(join(dir, 'r.trades.csv')), existsSync(html)]).toEqual([
      true,
      true,
      false,
    ]);
  }, 120_000);
});
