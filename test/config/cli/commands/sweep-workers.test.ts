import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../../config/cli/index.ts';
import { keelInProcess } from '../../../kit/keel-in-process.ts';

describe('keel sweep --workers', () => {
  it('warns when it asks for more threads than the machine has CPUs, and starts no more than the combinations', async () => {
    const workers = availableParallelism() + 1;
    const run = await keelInProcess([
      'sweep',
      'config/examples/sma-cross-backtest.yaml',
      '--grid',
      'strategies.0.params.fast=3',
      '--metric',
      'totalReturn',
      '--workers',
      String(workers),
    ]);
    expect(run.code, run.stderr).toBe(EXIT.OK);
    expect(run.stderr).toContain(
      `⚠ --workers ${workers} is more than the ${availableParallelism()} CPUs this machine offers: the backtests share them and run no faster\n`,
    );
    expect(run.stdout).toContain('1 combinations (SYNTHETIC data) on 1 worker(s)');
  }, 120_000);
});
