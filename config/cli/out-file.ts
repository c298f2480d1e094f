import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { makePrivateDirSync } from '../../backtest/files/index.ts';

/**
 * Makes an output file's folder when it is missing (as `keel backtest` does for its result; 0700,
 * see `makePrivateDirSync`) and
 * checks that the file can be written there, so a long command that ends by writing it fails at
 * its start instead.
 * @param path - the file, as typed
 * @returns why it cannot be written, one sentence; undefined when it can
 */
export function outFileProblem(path: string): string | undefined {
  const folder = dirname(resolve(path));
  try {
    makePrivateDirSync(folder);
    if (!existsSync(path)) accessSync(folder, constants.W_OK);
    else if (statSync(path).isDirectory()) return `${path} is a folder`;
    else accessSync(path, constants.W_OK);
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
}
