import { statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { makePrivateDirSync } from '../../backtest/files/index.ts';
import { folderWriteProblem } from '../compose/output-path-check.ts';

/**
 * Makes an output file's folder when it is missing (as `keel backtest` does for its result; 0700,
 * see `makePrivateDirSync`) and
 * checks that a file can be created there (by creating one: `access(2)` lets root write to a
 * read-only `/proc`), so a long command that ends by writing it fails at its start instead.
 * @param path - the file, as typed
 * @returns why it cannot be written, one sentence; undefined when it can
 */
export function outFileProblem(path: string): string | undefined {
  const folder = dirname(resolve(path));
  try {
    makePrivateDirSync(folder);
    if (statSync(path, { throwIfNoEntry: false })?.isDirectory() === true) return `${path} is a folder`;
  } catch (error) {
    return (error as Error).message;
  }
  // The file is written under a temporary name in its folder, then moved in place.
  return folderWriteProblem(folder, basename(path));
}
