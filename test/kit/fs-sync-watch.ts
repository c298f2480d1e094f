import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { afterEach } from 'vitest';

const original = { fsyncSync: fs.fsyncSync, closeSync: fs.closeSync };

/**
 * Watches node:fs's `fsyncSync` and `closeSync` in the calling test file (Node's named exports of
 * node:fs follow its object only when told to, so source files importing them see the watch too);
 * the originals are restored after each test.
 * @returns start(failSync): the calls, in order, as `sync <fd>` / `close <fd>`; with `failSync`
 *   every sync throws EIO instead of syncing
 */
export function fsSyncWatchedPerTest(): (failSync?: boolean) => string[] {
  afterEach(() => {
    Object.assign(fs, original);
    syncBuiltinESMExports();
  });
  return (failSync = false) => {
    const calls: string[] = [];
    fs.fsyncSync = (fd) => {
      calls.push(`sync ${fd}`);
      if (failSync) throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
      original.fsyncSync(fd);
    };
    fs.closeSync = (fd) => {
      calls.push(`close ${fd}`);
      original.closeSync(fd);
    };
    syncBuiltinESMExports();
    return calls;
  };
}
