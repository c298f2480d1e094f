import { describe, expect, it } from 'vitest';
import { runSweep, type SweepPool } from '../../../config/sweep/run-sweep.ts';
import type { SweepRow } from '../../../config/sweep/sweep-task.ts';
import { quietSweepRow } from '../../kit/sweep-rows.ts';

/** A pool answering each task after a turn of the event loop, counting what it was handed. */
function countingPool() {
  const seen = { tasks: 0, ports: 0, running: 0, peakRunning: 0 };
  const pool = {
    run(message: { task: { combination: readonly string[] }; started?: unknown; cancel?: unknown }) {
      seen.tasks++;
      seen.ports += (message.started === undefined ? 0 : 1) + (message.cancel === undefined ? 0 : 1);
      seen.running++;
      seen.peakRunning = Math.max(seen.peakRunning, seen.running);
      return new Promise<SweepRow>((resolve) =>
        setImmediate(() => {
          seen.running--;
          resolve(quietSweepRow(message.task.combination));
        }),
      );
    },
    async destroy() {},
  };
  return { pool: pool as unknown as SweepPool, seen };
}

describe('a sweep of many combinations', () => {
  it('hands the pool only as many tasks (each with its two ports) as it has workers, not every combination up front', async () => {
    const { pool, seen } = countingPool();
    const combinations = Array.from({ length: 500 }, (_, i) => [`strategies.0.params.n=${i}`]);
    let portsAtFirstRow = -1;
    const rows = await runSweep({
      file: '/unused.yaml',
      sets: [],
      combinations,
      workers: 2,
      timeoutMs: 60_000,
      signal: new AbortController().signal,
      pool,
      onRow: (_row, done) => {
        if (done === 1) portsAtFirstRow = seen.ports;
      },
    });
    expect(rows.map((row) => row.combination)).toEqual(combinations);
    expect(seen.peakRunning, 'tasks handed to the pool at once').toBeLessThanOrEqual(2);
    expect(portsAtFirstRow, 'message ports made before the first row').toBeLessThanOrEqual(4);
    expect(seen.tasks).toBe(500);
  });

  it('starts no combination after it is stopped, and returns the rows finished by then in grid order', async () => {
    const { pool, seen } = countingPool();
    const stop = new AbortController();
    const combinations = Array.from({ length: 50 }, (_, i) => [`n=${i}`]);
    const rows = await runSweep({
      file: '/unused.yaml',
      sets: [],
      combinations,
      workers: 3,
      signal: stop.signal,
      pool,
      onRow: (_row, done) => {
        if (done === 7) stop.abort();
      },
    });
    expect(seen.tasks).toBeLessThan(50);
    expect(rows.map((row) => row.combination)).toEqual(combinations.slice(0, rows.length));
  });
});
