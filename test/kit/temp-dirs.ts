import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';
import { SpillDirectory } from '../../backtest/report/index.ts';

/**
 * Fresh temporary directories, each removed when the given hook runs.
 * @param hook - afterEach or afterAll, registered here
 * @param prefix - the start of each directory's name
 * @returns a function giving a new directory on each call
 */
function tempDirsRemovedBy(hook: typeof afterEach, prefix: string): () => string {
  const made: string[] = [];
  hook(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}

/**
 * Fresh temporary directories for a suite's tests, each removed after the test that made it.
 * Registers an afterEach, so call it at the top of a test file or describe block.
 * @param prefix - the start of each directory's name
 * @returns a function giving a new directory on each call
 */
export function tempDirsRemovedAfterEach(prefix = 'keel-test-'): () => string {
  return tempDirsRemovedBy(afterEach, prefix);
}

/**
 * Fresh temporary directories for a suite, all removed once its tests are done. Registers an
 * afterAll, so call it at the top of a test file or describe block.
 * @param prefix - the start of each directory's name
 * @returns a function giving a new directory on each call
 */
export function tempDirsRemovedAfterAll(prefix: string): () => string {
  return tempDirsRemovedBy(afterAll, prefix);
}

/**
 * Fresh spill directories (the runner's and the result's temporary record files), each disposed
 * after the test that made it. Registers an afterEach, so call it at the top of a test file.
 * @param prefix - the start of each directory's name
 * @returns a function giving a new spill directory on each call
 */
export function spillDirectoriesDisposedAfterEach(prefix: string): () => SpillDirectory {
  const made: SpillDirectory[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) dir.dispose();
  });
  return () => {
    const dir = new SpillDirectory(prefix);
    made.push(dir);
    return dir;
  };
}
