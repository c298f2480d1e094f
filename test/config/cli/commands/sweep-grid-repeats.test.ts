import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../../config/cli/index.ts';
import { keelInProcess } from '../../../kit/keel-in-process.ts';

describe('keel sweep --grid with a value given twice', () => {
  it('runs the combination once and says which values were given again', async () => {
    const run = await keelInProcess([
      'sweep',
      'config/examples/sma-cross-backtest.yaml',
      '--grid',
      'strategies.0.params.fast=3,3,3.0',
      '--metric',
      'totalReturn',
      '--workers',
      '1',
    ]);
    expect(run.code, run.stderr).toBe(EXIT.OK);
    expect(run.stderr).toContain(
      '⚠ --grid strategies.0.params.fast: 3, 3.0 given again; each value runs once\n',
    );
    expect(run.stdout).toContain('\n1 combinations (SYNTHETIC data)');
  }, 120_000);
});
