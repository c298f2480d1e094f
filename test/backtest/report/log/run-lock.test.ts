import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  acquireRunLock,
  hostProbe,
  LOCK_STALE_AFTER_MS,
  processIdentity,
} from '../../../../backtest/report/index.ts';

describe('the run lock of a live or paper run', () => {
  let dir: string;
  let result: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keel-lock-'));
    result = join(dir, 'out', 'paper-result.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is held by one run at a time, names the holder to the next, and is free again once released', () => {
    const first = acquireRunLock([result], Date.UTC(2026, 10, 28, 20, 0, 0));
    if (!first.ok) throw new Error(first.problem);
    expect(JSON.parse(readFileSync(`${result}.lock`, 'utf8'))).toEqual({
      ...processIdentity(),
      startedAt: '2026-11-28T20:00:00.000Z',
      token: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    const second = acquireRunLock([result], Date.UTC(2026, 10, 28, 20, 0, 1));
    expect(second).toEqual({
      ok: false,
      problem: `another Keel run (pid ${process.pid}, started 2026-11-28T20:00:00.000Z) is writing ${result}: stop it first, or give this run another name, report.json or recording path (lock ${result}.lock)`,
      heldBy: `another Keel run (pid ${process.pid}, started 2026-11-28T20:00:00.000Z)`,
      lock: `${result}.lock`,
    });
    first.lock.release();
    expect(existsSync(`${result}.lock`)).toBe(false);
    const third = acquireRunLock([result], 0);
    expect(third.ok && third.lock.tookOver).toEqual([]);
    if (third.ok) third.lock.release();
  });

  it("locks every output, so a run sharing only another run's recording stops, and then holds none", () => {
    const recording = join(dir, 'out', 'session.jsonl.gz');
    const first = acquireRunLock([result, recording], 0);
    if (!first.ok) throw new Error(first.problem);
    expect(first.lock.paths).toEqual([`${result}.lock`, `${recording}.lock`]);
    const other = join(dir, 'out', 'other-result.json');
    const second = acquireRunLock([other, recording], 0);
    expect(second.ok).toBe(false);
    if (!second.ok) expect(second.problem).toContain(`is writing ${recording}: stop it first`);
    expect(existsSync(`${other}.lock`)).toBe(false);
    first.lock.release();
    expect([existsSync(`${result}.lock`), existsSync(`${recording}.lock`)]).toEqual([false, false]);
  });

  it('leaves no lock of the earlier outputs behind when a later one cannot be taken', () => {
    writeFileSync(join(dir, 'afile'), 'x');
    expect(() => acquireRunLock([result, join(dir, 'afile', 'rec.jsonl.gz')], 0)).toThrow();
    expect(existsSync(`${result}.lock`)).toBe(false);
  });

  it('takes over a lock whose run no longer runs, and says whose it was', () => {
    writeFileSync(`${join(dir, 'stale.json')}.lock`, '{"pid":4242,"startedAt":"2026-01-01T00:00:00.000Z"}\n');
    const taken = acquireRunLock([join(dir, 'stale.json')], 0, {
      probe: { ...hostProbe, runs: (pid) => pid !== 4242 },
    });
    if (!taken.ok) throw new Error(taken.problem);
    expect(taken.lock.tookOver).toEqual([
      { path: `${join(dir, 'stale.json')}.lock`, pid: 4242, why: 'no longer runs' },
    ]);
    expect(JSON.parse(readFileSync(`${join(dir, 'stale.json')}.lock`, 'utf8')).pid).toBe(process.pid);
    taken.lock.release();
  });

  it('takes over a lock file its writer never finished, once it is as old as a stale heartbeat', () => {
    const lock = `${result.replace('out/paper-result.json', 'torn.json')}.lock`;
    writeFileSync(lock, '');
    const died = (Date.now() - LOCK_STALE_AFTER_MS) / 1000;
    utimesSync(lock, died, died);
    const taken = acquireRunLock([join(dir, 'torn.json')], 0);
    expect(taken.ok && taken.lock.tookOver).toEqual([]);
    if (taken.ok) taken.lock.release();
  });

  it('does not remove a lock another run has taken since', () => {
    const mine = acquireRunLock([result], 0);
    if (!mine.ok) throw new Error(mine.problem);
    writeFileSync(`${result}.lock`, '{"pid":1,"startedAt":"x"}\n');
    mine.lock.release();
    expect(existsSync(`${result}.lock`)).toBe(true);
  });

  it('is removed when the process exits without releasing it', () => {
    const script = `import { acquireRunLock } from ${JSON.stringify(join(process.cwd(), 'backtest/report/log/run-lock.ts'))};
const held = acquireRunLock([${JSON.stringify(result)}], 0);
if (!held.ok) process.exit(9);
process.exit(0);`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(0);
    expect(existsSync(`${result}.lock`)).toBe(false);
  });
});
