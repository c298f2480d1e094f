import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireRunLock } from '../../../config/compose/run-lock.ts';

// CI / container angle: a run killed by SIGKILL (OOM, CI timeout) or by SIGTERM (a backtest has no
// SIGTERM handler, so its 'exit' hook never removes the lock) leaves `<result>.json.lock` naming
// its pid. In a fresh container / pid namespace the retried job gets the SAME pid (pid 1, 2, 7...),
// so the stale lock names a process that "runs": the new run itself. It refuses itself with exit 2,
// and so does every later retry, until someone deletes the lock by hand.
describe('a stale run lock left by an earlier process that had the same pid (container restart)', () => {
  let dir: string;
  let result: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keel-ci-lock-'));
    result = join(dir, 'out', 'bt-result.json');
    mkdirSync(join(dir, 'out'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is taken over, since it was written before this process even started', () => {
    const processStart = Date.now() - process.uptime() * 1000;
    // Written by the killed run of the previous container, an hour before this process started.
    writeFileSync(
      `${result}.lock`,
      `${JSON.stringify({ pid: process.pid, startedAt: new Date(processStart - 3_600_000).toISOString() })}\n`,
    );
    const taken = acquireRunLock([result], Date.now());
    if (taken.ok) taken.lock.release();
    // Fails today: { ok: false, problem: 'another Keel run (pid <own pid>, ...) is writing ...' }
    expect(taken.ok).toBe(true);
  });
});
