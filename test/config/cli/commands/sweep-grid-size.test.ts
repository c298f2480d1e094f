import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../../config/cli/index.ts';
import { keelInProcess } from '../../../kit/keel-in-process.ts';

const EXAMPLE = 'config/examples/sma-cross-backtest.yaml';

describe('keel sweep: the size of the grid', () => {
  it('is said before the first backtest runs: combinations, backtests and worker threads', async () => {
    // fast=21 is not shorter than either slow: sma-cross refuses both of its combinations.
    const run = await keelInProcess([
      'sweep',
      EXAMPLE,
      '--grid',
      'strategies.0.params.fast=3,21',
      '--grid',
      'strategies.0.params.slow=13,21',
      '--metric',
      'totalReturn',
      '--workers',
      '2',
    ]);
    expect(run.code, run.stderr).toBe(EXIT.OK);
    expect(run.stderr.split('\n').slice(0, 2)).toEqual([
      'sweep: 4 combinations (2 × 2), 2 backtests on 2 worker threads (2 not run, listed under the table)',
      'sweep: 1/2 backtests done',
    ]);
  }, 60_000);

  it('over 10 000 combinations is refused at once unless --max-combinations raises the limit', async () => {
    // The first combination's latency is refused as the grid is checked: a raised limit lets the grid reach that check, and no backtest runs.
    const grid = ['--grid', 'backtest.latency.fixedMs=-1,0..99', '--grid', 'strategies.0.params.fast=1..100'];
    const refused = await keelInProcess(['sweep', EXAMPLE, ...grid]);
    expect(refused.stderr).toBe(
      '✖ the grid has 10100 combinations, more than the 10000 allowed (--max-combinations raises the limit)\n',
    );
    expect(refused.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    const raised = await keelInProcess(['sweep', EXAMPLE, ...grid, '--max-combinations', '10100']);
    expect(raised.stderr).toMatch(
      /^✖ latency\.fixedMs must be zero or more → at backtest\.latency\.fixedMs /,
    );
    expect(raised.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
  });
});
