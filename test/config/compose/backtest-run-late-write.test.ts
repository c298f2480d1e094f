import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { EXIT } from '../../../config/cli/index.ts';
import { keelInProcess } from '../../kit/keel-in-process.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

/** The disk fills up while the HTML report is written, after the run and its up-front checks. */
vi.mock('../../../backtest/report/index.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../backtest/report/index.ts')>()),
  renderHtmlReport: () => {
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  },
}));

const tempDir = tempDirsRemovedAfterEach('keel-late-write-');

describe('a backtest whose report cannot be written at its end', () => {
  it('prints its summary, keeps the result JSON and CSVs, and exits 1 naming what was not written', async () => {
    const dir = tempDir();
    const json = join(dir, 'r.json');
    const html = join(dir, 'r.html');
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
      /✖ keel backtest .*: ENOSPC: no space left on device, write; not written: .*r\.html\n$/,
    );
    expect([existsSync(json), existsSync(join(dir, 'r.trades.csv')), existsSync(html)]).toEqual([
      true,
      true,
      false,
    ]);
  }, 120_000);
});
