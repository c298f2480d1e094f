import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  acquireRunLock,
  HEARTBEAT_MS,
  LOCK_STALE_AFTER_MS,
  type LockEnvironment,
  tookOverWarning,
} from '../../../../backtest/report/index.ts';
import { fakeProbe } from '../../../kit/fake-process-probe.ts';

const NOW = Date.UTC(2026, 10, 29, 12, 0, 0);
const here = { bootId: 'boot-1', pidNamespace: 'pid:[4026531836]', host: 'box' };
const probe = fakeProbe({ self: { pid: 7, ticks: '5000' }, others: { 42: '4000' } });

/** A clock the test moves, and the heartbeat the lock asked for, called by hand. */
function environment() {
  const clock = { now: NOW };
  const beats: { ms: number; beat: () => void; stopped: boolean }[] = [];
  const env: LockEnvironment = {
    probe,
    now: () => clock.now,
    every: (ms, beat) => {
      const entry = { ms, beat, stopped: false };
      beats.push(entry);
      return () => {
        entry.stopped = true;
      };
    },
  };
  return { env, clock, beats };
}

describe('a run lock judged by process identity', () => {
  let dir: string;
  let result: string;
  let lock: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keel-lock-id-'));
    result = join(dir, 'bt-result.json');
    lock = `${result}.lock`;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Writes a lock as its holder would, its heartbeat `ageMs` before NOW. */
  const holdBy = (holder: object, ageMs = 0) => {
    writeFileSync(lock, `${JSON.stringify({ startedAt: '2026-11-29T11:00:00.000Z', ...holder })}\n`);
    const at = (NOW - ageMs) / 1000;
    utimesSync(lock, at, at);
  };

  it('records pid, start time, boot, pid namespace and host, and the acquisition token', () => {
    const { env } = environment();
    const taken = acquireRunLock([result], NOW, env);
    if (!taken.ok) throw new Error(taken.problem);
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toEqual({
      pid: 7,
      startTicks: '5000',
      ...here,
      startedAt: '2026-11-29T12:00:00.000Z',
      token: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    taken.lock.release();
  });

  it("takes over a lock naming this process's pid that this process did not take (a restarted container)", () => {
    holdBy({ pid: 7, startTicks: '5000', ...here });
    const taken = acquireRunLock([result], NOW, environment().env);
    if (!taken.ok) throw new Error(taken.problem);
    expect(taken.lock.tookOver).toEqual([
      {
        path: lock,
        pid: 7,
        why: "named this process's pid but was left by an earlier process that had it (a restarted container)",
      },
    ]);
    taken.lock.release();
  });

  it('takes over a lock whose pid now runs a process started later', () => {
    holdBy({ pid: 42, startTicks: '3000', ...here });
    const taken = acquireRunLock([result], NOW, environment().env);
    expect(taken.ok && taken.lock.tookOver.map(tookOverWarning)).toEqual([
      `took over the lock ${lock} of an earlier Keel run (pid 42) that no longer runs (its pid belongs to a process started since)`,
    ]);
    if (taken.ok) taken.lock.release();
  });

  it('refuses a lock whose pid runs the process that took it', () => {
    holdBy({ pid: 42, startTicks: '4000', ...here }, 3_600_000);
    const taken = acquireRunLock([result], NOW, environment().env);
    expect(taken.ok).toBe(false);
    expect(existsSync(lock)).toBe(true);
  });

  it('refuses a lock from another pid namespace while its heartbeat is recent, and takes it over once it is not', () => {
    const other = { pid: 7, startTicks: '100', ...here, pidNamespace: 'pid:[4026532999]' };
    holdBy(other, LOCK_STALE_AFTER_MS - 1_000);
    const refused = acquireRunLock([result], NOW, environment().env);
    expect(refused).toEqual({
      ok: false,
      problem: `another Keel run (pid 7, started 2026-11-29T11:00:00.000Z, runs on host box in another pid namespace (container) or boot: its heartbeat is 29 s old: it is taken over once its heartbeat is 30 s old) is writing ${result}: stop it first, or give this run another name, report.json or recording path (lock ${lock})`,
      heldBy:
        'another Keel run (pid 7, started 2026-11-29T11:00:00.000Z, runs on host box in another pid namespace (container) or boot: its heartbeat is 29 s old: it is taken over once its heartbeat is 30 s old)',
      lock,
    });
    holdBy(other, LOCK_STALE_AFTER_MS);
    const taken = acquireRunLock([result], NOW, environment().env);
    expect(taken.ok && taken.lock.tookOver.map((s) => s.why)).toEqual([
      'ran on host box in another pid namespace (container) or boot and its heartbeat stopped 30 s ago (at least 30 s ago means gone)',
    ]);
    if (taken.ok) taken.lock.release();
  });

  it('keeps its heartbeat while held, and stops it when released', () => {
    const { env, clock, beats } = environment();
    const taken = acquireRunLock([result], NOW, env);
    if (!taken.ok) throw new Error(taken.problem);
    expect(beats.map((b) => b.ms)).toEqual([HEARTBEAT_MS]);
    clock.now = NOW + 25_000;
    beats[0]?.beat();
    expect(statSync(lock).mtimeMs).toBe(NOW + 25_000);
    // Another process, in another pid namespace, now sees a heartbeat 5 s old: it keeps off.
    const elsewhere = fakeProbe({ self: { pid: 7, ticks: '9' }, pidNamespace: 'pid:[4026532999]' });
    const second = acquireRunLock([result], NOW + 30_000, {
      ...env,
      probe: elsewhere,
      now: () => NOW + 30_000,
    });
    expect(second.ok).toBe(false);
    taken.lock.release();
    expect(beats[0]?.stopped).toBe(true);
    expect(existsSync(lock)).toBe(false);
  });

  it('neither refreshes nor removes a lock another process with the same pid took over since', () => {
    const { env, clock, beats } = environment();
    const taken = acquireRunLock([result], NOW, env);
    if (!taken.ok) throw new Error(taken.problem);
    holdBy({ pid: 7, startTicks: '100', ...here, pidNamespace: 'pid:[4026532999]' }, 1_000);
    clock.now = NOW + 5_000;
    beats[0]?.beat();
    expect(statSync(lock).mtimeMs).toBe(NOW - 1_000);
    taken.lock.release();
    expect(existsSync(lock)).toBe(true);
  });
});
