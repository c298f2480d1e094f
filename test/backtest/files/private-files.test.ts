import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  makePathPrivateSync,
  makePrivate,
  makePrivateDir,
  makePrivateDirSync,
  makePrivateSync,
  openPrivate,
  openPrivateSync,
  writePrivateFile,
} from '../../../backtest/files/index.ts';
import { modeOf, POSIX_MODES } from '../../kit/file-modes.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const aDir = tempDirsRemovedAfterEach('keel-private-files-');

describe.skipIf(!POSIX_MODES)('private files', () => {
  it('sets a file that existed with a wider mode to 0600, by descriptor, handle or path, or as it opens it', async () => {
    const dir = aDir();
    const [a, b, c, d] = [join(dir, 'a'), join(dir, 'b'), join(dir, 'c'), join(dir, 'd')] as const;
    for (const path of [a, b, c, d]) writeFileSync(path, 'x', { mode: 0o644 });
    const fd = openSync(a, 'a');
    makePrivateSync(fd);
    closeSync(fd);
    const handle = await open(b, 'a');
    await makePrivate(handle);
    await handle.close();
    makePathPrivateSync(c);
    closeSync(openPrivateSync(d, 'a'));
    expect([a, b, c, d].map(modeOf)).toEqual(['600', '600', '600', '600']);
  });

  it('writes a whole file 0600, new or over one with a wider mode, and opens one so asynchronously', async () => {
    const dir = aDir();
    const [a, b, c, d] = [join(dir, 'a'), join(dir, 'b'), join(dir, 'c'), join(dir, 'd')] as const;
    for (const path of [b, d]) writeFileSync(path, 'earlier and longer', { mode: 0o644 });
    await writePrivateFile(a, 'x');
    await writePrivateFile(b, 'x');
    await writePrivateFile(c, 'x');
    await (await openPrivate(d, 'a')).close();
    expect([a, b, c, d].map(modeOf)).toEqual(['600', '600', '600', '600']);
    expect([a, b, c].map((path) => readFileSync(path, 'utf8'))).toEqual(['x', 'x', 'x']);
  });

  it('creates directories 0700, its missing parents too, and leaves one that exists as it is', async () => {
    const dir = aDir();
    makePrivateDirSync(join(dir, 'a', 'b'));
    await makePrivateDir(join(dir, 'c', 'd'));
    expect([join(dir, 'a'), join(dir, 'a', 'b'), join(dir, 'c'), join(dir, 'c', 'd')].map(modeOf)).toEqual([
      '700',
      '700',
      '700',
      '700',
    ]);
    const before = modeOf(dir);
    makePrivateDirSync(join(dir, 'e'));
    expect(modeOf(dir)).toBe(before);
  });

  it('refuses a file where a directory goes, or on the way to it, as the recursive option does', () => {
    const dir = aDir();
    writeFileSync(join(dir, 'f'), 'x');
    expect(() => makePrivateDirSync(join(dir, 'f'))).toThrow(/EEXIST/);
    expect(() => makePrivateDirSync(join(dir, 'f', 'g', 'h'))).toThrow(/ENOTDIR/);
  });

  it.skipIf(!existsSync('/proc/self'))(
    'fails on a folder /proc will not hold instead of spinning for ever as recursive mkdir does',
    () => {
      // In a child with a time limit: the old way never returned and would hang the suite.
      const module = fileURLToPath(new URL('../../../backtest/files/index.ts', import.meta.url));
      const child = spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          '--input-type=module',
          '-e',
          `import { makePrivateDirSync } from ${JSON.stringify(module)};
try { makePrivateDirSync('/proc/keel-no-such-folder/out'); console.log('made'); }
catch (error) { console.log(error.code); }`,
        ],
        { encoding: 'utf8', timeout: 30_000 },
      );
      expect(child.signal).toBeNull();
      expect(child.stdout.trim()).toBe('ENOENT');
    },
  );
});
