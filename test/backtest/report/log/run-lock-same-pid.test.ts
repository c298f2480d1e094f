import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireRunLock } from '../../../../backtest/report/index.ts';

// A run killed by SIGKILL (OOM, CI timeout) leaves `<result>.json.lock` naming its pid. In a fresh
// container (pid namespace) the retried job usually gets the SAME pid (1, 2, 7...), so a lock in
// the format Keel wrote before it recorded process identities names a process that "runs": the
// new run itself, which used to refuse itself, as every later retry did.
describe('a stale run lock left by an earlier process that had the same pid (container restart)', () => {
  let dir: string;
  let result: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keel-same-pid-lock-'));
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
    expect(taken.ok).toBe(true);
  });
});
