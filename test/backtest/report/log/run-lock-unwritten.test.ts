import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, openSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireRunLock, LOCK_STALE_AFTER_MS } from '../../../../backtest/report/index.ts';
import { tempDirsRemovedAfterEach } from '../../../kit/temp-dirs.ts';

const aTempDir = tempDirsRemovedAfterEach('keel-lock-unwritten-');

describe('a run lock another process has just created but not yet written', () => {
  it('is not taken over at once (the other run holds it and goes on)', () => {
    const out = join(aTempDir(), 'result.json');
    // Run A, inside created(): openSync(path, 'wx') succeeded, its writeSync has not run yet.
    const fdOfA = openSync(`${out}.lock`, 'wx');
    // Run B starts now.
    const b = acquireRunLock([out], Date.now());
    // Run A goes on: it writes its holder into the file it created and believes it holds the lock.
    writeSync(fdOfA, `${JSON.stringify({ pid: 999999 })}\n`);
    closeSync(fdOfA);
    if (b.ok) b.lock.release();
    // B must be refused: else both runs write the same result files.
    expect(b.ok).toBe(false);
    expect(b.ok ? undefined : b.heldBy).toBe(
      `another Keel run (whose lock file is not written yet: it is taken over once it is ${LOCK_STALE_AFTER_MS / 1000} s old)`,
    );
  });

  it('is taken over once it is as old as a stale heartbeat (its run died between the two steps)', () => {
    const out = join(aTempDir(), 'result.json');
    writeFileSync(`${out}.lock`, '');
    const made = statSync(`${out}.lock`).mtimeMs;
    expect(acquireRunLock([out], made, { now: () => made + LOCK_STALE_AFTER_MS - 1 }).ok).toBe(false);
    const later = acquireRunLock([out], made, { now: () => made + LOCK_STALE_AFTER_MS });
    expect(later.ok && later.lock.tookOver).toEqual([]);
    if (later.ok) later.lock.release();
  });
});

describe('a run lock that cannot be written whole (the disk full, the file-size limit)', () => {
  it('is not left behind: the run fails, and the next one takes the lock at once', () => {
    const out = join(aTempDir(), 'result.json');
    // Only 20 bytes of the holder fit: the write is cut short, then EFBIG.
    execFileSync('prlimit', ['--pid', String(process.pid), '--fsize=20:unlimited']);
    let thrown: unknown;
    try {
      acquireRunLock([out], Date.now());
    } catch (error) {
      thrown = error;
    } finally {
      execFileSync('prlimit', ['--pid', String(process.pid), '--fsize=unlimited:unlimited']);
    }
    expect((thrown as NodeJS.ErrnoException | undefined)?.code).toBe('EFBIG');
    expect(existsSync(`${out}.lock`)).toBe(false);
    const next = acquireRunLock([out], Date.now());
    expect(next.ok).toBe(true);
    if (next.ok) next.lock.release();
  });
});
