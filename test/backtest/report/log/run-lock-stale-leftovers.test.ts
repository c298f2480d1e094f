import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  acquireRunLock,
  LOCK_STALE_AFTER_MS,
  type LockEnvironment,
} from '../../../../backtest/report/index.ts';
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
const ELSEWHERE = { pid: 7, startTicks: '100', ...here, pidNamespace: 'pid:[4026532999]' };

describe('a lock file a takeover moved aside and was killed before removing or putting back', () => {
  let dir: string;
  let result: string;
  let lock: string;
  let aside: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keel-lock-aside-'));
    result = join(dir, 'bt-result.json');
    lock = `${result}.lock`;
    aside = `${lock}.0123456789ab.stale`;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Leaves `text` moved aside, its heartbeat (modification time) `ageMs` before NOW. */
  const leaveAside = (text: string, ageMs = 0) => {
    writeFileSync(aside, text);
    const at = (NOW - ageMs) / 1000;
    utimesSync(aside, at, at);
  };
  const holderText = (holder: object) =>
    `${JSON.stringify({ startedAt: '2026-11-29T11:00:00.000Z', ...holder })}\n`;

  it('is removed by the next run once its holder is gone, the run taking the lock', () => {
    leaveAside(holderText(DEAD));
    const taken = acquireRunLock([result], NOW, env);
    expect(taken.ok).toBe(true);
    expect(readdirSync(dir)).toEqual(['bt-result.json.lock']);
    if (taken.ok) taken.lock.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('is put back when its holder still runs and the lock is free, so the next run finds the lock held', () => {
    const text = holderText(LIVE);
    leaveAside(text);
    const refused = acquireRunLock([result], NOW, env);
    expect(refused.ok ? '' : refused.problem).toContain('another Keel run (pid 42,');
    expect(readdirSync(dir)).toEqual(['bt-result.json.lock']);
    expect(readFileSync(lock, 'utf8')).toBe(text);
  });

  it('is left alone while its holder still runs and another lock stands in its place', () => {
    const text = holderText(LIVE);
    leaveAside(text);
    writeFileSync(lock, holderText({ ...LIVE, startedAt: '2026-11-29T11:30:00.000Z' }));
    expect(acquireRunLock([result], NOW, env).ok).toBe(false);
    expect(readdirSync(dir).sort()).toEqual([
      'bt-result.json.lock',
      'bt-result.json.lock.0123456789ab.stale',
    ]);
    expect(readFileSync(aside, 'utf8')).toBe(text);
  });

  it('of a holder in another pid namespace: put back while its heartbeat is recent, removed once it is not', () => {
    leaveAside(holderText(ELSEWHERE), LOCK_STALE_AFTER_MS - 1_000);
    expect(acquireRunLock([result], NOW, env).ok).toBe(false);
    expect(readdirSync(dir)).toEqual(['bt-result.json.lock']);
    rmSync(lock);
    leaveAside(holderText(ELSEWHERE), LOCK_STALE_AFTER_MS);
    const taken = acquireRunLock([result], NOW, env);
    expect(taken.ok).toBe(true);
    expect(readdirSync(dir)).toEqual(['bt-result.json.lock']);
    if (taken.ok) taken.lock.release();
  });

  it('that never held a whole holder is removed once as old as a stale heartbeat, and left while younger', () => {
    leaveAside('{"pid": 4', 1_000);
    const first = acquireRunLock([result], NOW, env);
    expect(first.ok).toBe(true);
    expect(readdirSync(dir).sort()).toEqual([
      'bt-result.json.lock',
      'bt-result.json.lock.0123456789ab.stale',
    ]);
    if (first.ok) first.lock.release();
    leaveAside('{"pid": 4', LOCK_STALE_AFTER_MS);
    const second = acquireRunLock([result], NOW, env);
    expect(readdirSync(dir)).toEqual(['bt-result.json.lock']);
    if (second.ok) second.lock.release();
  });

  it("leaves other files alone, also another lock's leftovers", () => {
    const others = [
      'bt-result.json',
      'bt-result.json.lock.stale',
      'bt-result.json.lock.0123456789ab.stale.bak',
      'other.json.lock.0123456789ab.stale',
    ];
    for (const name of others) writeFileSync(join(dir, name), holderText(DEAD));
    const taken = acquireRunLock([result], NOW, env);
    if (taken.ok) taken.lock.release();
    expect(readdirSync(dir).sort()).toEqual([...others].sort());
  });
});
