import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireRunLock, type LockEnvironment } from '../../../../backtest/report/index.ts';
import { fakeProbe } from '../../../kit/fake-process-probe.ts';

const NOW = Date.UTC(2026, 10, 29, 12, 0, 0);
const here = { bootId: 'boot-1', pidNamespace: 'pid:[4026531836]', host: 'box' };
/** This run is pid 7; pid 42 runs the process that took its lock; pid 99 runs nothing. */
const env: LockEnvironment = {
  probe: fakeProbe({ self: { pid: 7, ticks: '5000' }, others: { 42: '4000' } }),
  now: () => NOW,
  every: () => () => {},
};
const DEAD = { pid: 99, startTicks: '100', ...here };
const LIVE = { pid: 42, startTicks: '4000', ...here };

describe("a live run's lock moved aside by a killed takeover, while a dead run's lock stands in its place", () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is put back once the dead lock is taken over, so this run is refused instead of writing over it', () => {
    dir = mkdtempSync(join(tmpdir(), 'keel-lock-aside2-'));
    const result = join(dir, 'bt-result.json');
    const lock = `${result}.lock`;
    const holderText = (holder: object) =>
      `${JSON.stringify({ startedAt: '2026-11-29T11:00:00.000Z', ...holder })}\n`;
    // pid 42 (alive) holds the output, its lock moved aside by a takeover killed midway;
    // meanwhile pid 99 created the lock and died holding it.
    writeFileSync(`${lock}.0123456789ab.stale`, holderText(LIVE));
    writeFileSync(lock, holderText(DEAD));
    const taken = acquireRunLock([result], NOW, env);
    if (taken.ok) taken.lock.release();
    expect(taken.ok ? 'took the lock while pid 42 runs' : taken.problem).toContain(
      'another Keel run (pid 42,',
    );
    expect(JSON.parse(readFileSync(lock, 'utf8')).pid).toBe(42);
  });
});
