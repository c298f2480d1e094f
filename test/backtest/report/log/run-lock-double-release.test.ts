import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireRunLock, type RunLock } from '../../../../backtest/report/index.ts';

describe('a run lock released twice', () => {
  let dir: string;
  let output: string;
  const held: RunLock[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keel-lock-twice-'));
    output = join(dir, 'paper-venue');
  });
  afterEach(() => {
    for (const lock of held.splice(0)) lock.release();
    rmSync(dir, { recursive: true, force: true });
  });

  it('leaves the lock this process took on the same path since, which still keeps a third run out', () => {
    const first = acquireRunLock([output], 0);
    if (!first.ok) throw new Error(first.problem);
    first.lock.release();
    const second = acquireRunLock([output], 1);
    if (!second.ok) throw new Error(second.problem);
    held.push(second.lock);
    first.lock.release();
    expect(existsSync(`${output}.lock`), 'the second lock file was removed').toBe(true);
    const third = acquireRunLock([output], 2);
    if (third.ok) held.push(third.lock);
    expect(third.ok).toBe(false);
  });

  it('removes only its own acquisition: a lock file of the same process with another token stays', () => {
    const first = acquireRunLock([output], 0);
    if (!first.ok) throw new Error(first.problem);
    const path = `${output}.lock`;
    const other = { ...JSON.parse(readFileSync(path, 'utf8')), token: 'f'.repeat(32) };
    writeFileSync(path, `${JSON.stringify(other)}\n`);
    first.lock.release();
    expect(existsSync(path), 'the lock of another acquisition was removed').toBe(true);
  });
});
