import fs, {
  closeSync,
  fstatSync,
  openSync,
  readFileSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireRunLock, LOCK_STALE_AFTER_MS } from '../../../../backtest/report/index.ts';
import { tempDirsRemovedAfterEach } from '../../../kit/temp-dirs.ts';

const aTempDir = tempDirsRemovedAfterEach('keel-lock-empty-race-');

// Run C's steps, injected between run B's judging of the stale empty lock and B's move aside: the
// first rename to a `.stale` name runs them first. Patched on node:fs itself (and synced into its
// ES module exports), as the test files share one module graph and a module mock may come too late.
const realRename = fs.renameSync;
const hook: { fire?: (from: string) => void } = {};
function patchRename(): void {
  fs.renameSync = (from: fs.PathLike, to: fs.PathLike) => {
    const fire = hook.fire;
    if (String(to).endsWith('.stale') && fire !== undefined) {
      hook.fire = undefined;
      fire(String(from));
    }
    realRename(from, to);
  };
  syncBuiltinESMExports();
}
afterEach(() => {
  hook.fire = undefined;
  fs.renameSync = realRename;
  syncBuiltinESMExports();
});

describe('a stale empty run lock two runs take over at once', () => {
  it('is not removed by run B after run C has replaced it with its own (just created) lock', () => {
    const out = join(aTempDir(), 'result.json');
    const lock = `${out}.lock`;
    // A run killed between create and write left an empty lock, 31 s ago (so judged stale).
    writeFileSync(lock, '');
    const killedAt = (Date.now() - LOCK_STALE_AFTER_MS - 1_000) / 1000;
    utimesSync(lock, killedAt, killedAt);
    let fdOfC: number | undefined;
    hook.fire = (path) => {
      // Run C judged the same empty lock stale first, removed it, and created its own: openSync('wx')
      // succeeded, its write has not run yet (the two steps of created()).
      unlinkSync(path);
      fdOfC = openSync(path, 'wx');
    };
    patchRename();
    // The real clock: C's lock, created just now, is as young to B as it is.
    const b = acquireRunLock([out], Date.now());
    // C goes on: writes its holder into the file it created and believes it holds the lock.
    expect(fdOfC).toBeDefined();
    writeSync(fdOfC as number, `${JSON.stringify({ pid: 424242 })}\n`);
    const cLinks = fstatSync(fdOfC as number).nlink;
    closeSync(fdOfC as number);
    if (b.ok) b.lock.release();
    // Both runs hold the lock when B got it and C's lock file was removed from under it.
    expect({ bGotIt: b.ok, cLockFileLinks: cLinks }).not.toEqual({ bGotIt: true, cLockFileLinks: 0 });
    // B put C's lock back and found it held (not written yet, and young).
    expect({ bGotIt: b.ok, cLockFileLinks: cLinks }).toEqual({ bGotIt: false, cLockFileLinks: 1 });
    expect(readFileSync(lock, 'utf8')).toBe(`${JSON.stringify({ pid: 424242 })}\n`);
  });
});
