import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../../config/cli/index.ts';
import { reportOutputFlags } from '../../../kit/keel-child-process.ts';
import { keelInProcess } from '../../../kit/keel-in-process.ts';
import { tempDirsRemovedAfterEach } from '../../../kit/temp-dirs.ts';

const tempDir = tempDirsRemovedAfterEach('sweep-replay-window-');
const EXAMPLE = 'config/examples/sma-cross-backtest.yaml';
const GRID = ['--grid', 'strategies.0.params.fast=3,5', '--grid', 'strategies.0.params.slow=13,21'];

describe('keel sweep: a replay window that misses the recordings', () => {
  it.each([
    ['--from', '2030-01-01'],
    ['--to', '2020-01-01'],
  ])(
    '%s %s is refused before any backtest runs, naming the data span as keel backtest does (exit 2)',
    async (option, time) => {
      const sweep = await keelInProcess(['sweep', EXAMPLE, ...GRID, '--metric', 'totalReturn', option, time]);
      const backtest = await keelInProcess([
        'backtest',
        EXAMPLE,
        '--no-progress',
        option,
        time,
        ...reportOutputFlags(tempDir(), 'window'),
      ]);
      expect(backtest.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
      expect(backtest.stderr).toMatch(
        /the recordings (end|start) \(2025-01-06T\d\d:\d\d:\d\d\.\d+Z\): nothing was replayed/,
      );
      // The same sentence, and nothing else: no progress line, no table, no failed rows.
      expect(sweep.stderr).toBe(backtest.stderr);
      expect(sweep.stdout).toBe('');
      expect(sweep.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    },
  );

  it('lists a grid combination whose window misses the data with the refused ones and runs the others', async () => {
    const run = await keelInProcess([
      'sweep',
      EXAMPLE,
      '--grid',
      'strategies.0.params.fast=3',
      '--grid',
      'backtest.from=2025-01-06T14:35:00Z,2030-01-01',
      '--metric',
      'totalReturn',
    ]);
    expect(run.code, run.stderr).toBe(EXIT.OK);
    expect(run.stdout).toContain('1 of 2 combinations (SYNTHETIC data)');
    expect(run.stdout).toContain(
      '⚠ 1 of 2 combinations not run, their replay window holds no recorded event:\n  strategies.0.params.fast=3 backtest.from=2030-01-01: the replay window starts at 2030-01-01 00:00:00 UTC, after the recordings end (2025-01-06 15:00:00.006 UTC): nothing was replayed\n',
    );
    expect(run.stdout).not.toContain('its backtest failed');
  }, 60_000);
});
