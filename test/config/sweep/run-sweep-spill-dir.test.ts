import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSweep, type SweepPool } from '../../../config/sweep/run-sweep.ts';
import type { SweepRow, SweepTask } from '../../../config/sweep/sweep-task.ts';
import { quietSweepRow } from '../../kit/sweep-rows.ts';

/** What a combination's backtest does in the pool: answers a row, or leaves its files behind and fails. */
type Outcome = 'row' | 'dies';

/**
 * A pool whose every task leaves a spill directory of its own inside the sweep's (`task.spillIn`),
 * as a worker's backtest makes one; a task that `dies` leaves it there and rejects, as a worker
 * terminated mid-run (by --timeout, or after Ctrl-C's grace) cannot remove it.
 */
function leavingPool(outcome: (index: number) => Outcome) {
  const seen: string[] = [];
  let index = 0;
  const pool = {
    async run(message: { task: SweepTask }): Promise<SweepRow> {
      const { task } = message;
      // A sweep that gives none: the tasks' files would go to the shared temporary directory.
      if (task.spillIn === undefined) throw new Error('no spill directory of the sweep given');
      const inside = join(task.spillIn, `keel-backtest-${process.pid}-task${index}`);
      seen.push(task.spillIn);
      mkdirSync(inside);
      writeFileSync(join(inside, 'orders.log'), 'spilled\n');
      if (outcome(index++) === 'dies') throw new Error('worker terminated');
      return quietSweepRow(task.combination);
    },
    async destroy() {},
  };
  return { pool: pool as unknown as SweepPool, seen };
}

const combinations = [['n=1'], ['n=2'], ['n=3']];
const SWEEP_DIR = new RegExp(`keel-sweep-${process.pid}-[A-Za-z0-9]{6}$`);

describe("a sweep's spill directory", () => {
  it('holds every backtest spill directory and is removed when the sweep ends, with what a failed backtest left in it', async () => {
    const { pool, seen } = leavingPool((i) => (i === 1 ? 'dies' : 'row'));
    const rows = await runSweep({ file: '/unused.yaml', sets: [], combinations, workers: 1, pool });
    expect(rows.map((row) => row.error)).toEqual([undefined, 'worker terminated', undefined]);
    expect(new Set(seen).size, 'one directory for the whole sweep').toBe(1);
    expect(seen[0]).toMatch(SWEEP_DIR);
    expect(existsSync(seen[0] as string)).toBe(false);
  });

  it('is removed when the sweep itself fails', async () => {
    const { pool, seen } = leavingPool(() => 'row');
    const sweep = runSweep({
      file: '/unused.yaml',
      sets: [],
      combinations,
      workers: 1,
      pool,
      onRow: () => {
        throw new Error('the progress display broke');
      },
    });
    await expect(sweep).rejects.toThrow('the progress display broke');
    expect(seen[0]).toMatch(SWEEP_DIR);
    expect(existsSync(seen[0] as string)).toBe(false);
  });

  it('is removed when the sweep is stopped (Ctrl-C)', async () => {
    const stop = new AbortController();
    const { pool, seen } = leavingPool(() => 'row');
    const rows = await runSweep({
      file: '/unused.yaml',
      sets: [],
      combinations,
      workers: 1,
      pool,
      signal: stop.signal,
      onRow: () => stop.abort(),
    });
    expect(rows).toHaveLength(1);
    expect(seen[0]).toMatch(SWEEP_DIR);
    expect(existsSync(seen[0] as string)).toBe(false);
  });
});
