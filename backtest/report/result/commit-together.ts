import { copyFile, link, lstat, rename, rm } from 'node:fs/promises';
import { FileWriteError, writingFile } from './file-write-error.ts';
import { keptNameOf } from './staged-name.ts';

/** A file written under a temporary name beside its target, not in place yet. */
export interface StagedFile {
  /** The target path. */
  readonly path: string;
  /**
   * Moves the file to its target path, replacing what was there in one step.
   * @throws FileWriteError naming the target when the move fails (the staged file stays, for {@link discard})
   */
  commit(): Promise<void>;
  /** Removes the temporary file (after a failure elsewhere); does nothing once committed. */
  discard(): Promise<void>;
}

/** Fails, naming the file, when what is at `path` cannot be replaced by a file (a directory). */
async function checkReplaceable(path: string): Promise<void> {
  const found = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw new FileWriteError(path, error);
  });
  if (found?.isDirectory())
    throw new FileWriteError(path, 'a directory is where the file goes; move it away and run again');
}

/**
 * Moves staged files in place as one: every target is checked first (a directory where a file
 * goes stops it before any move), and each target's previous file is kept under another name
 * until all are moved, so when a move fails all the same the moved ones are put back as they were
 * (the previous file, or no file where there was none). The staged files are not removed here.
 * @param staged - the staged files, moved in this order
 * @throws FileWriteError naming the file that could not be moved (or put back)
 */
export async function commitTogether(staged: readonly StagedFile[]): Promise<void> {
  for (const file of staged) await checkReplaceable(file.path);
  const moved: { readonly path: string; readonly previous: string | undefined }[] = [];
  for (const file of staged) {
    let previous: string | undefined;
    try {
      previous = await keepPrevious(file.path);
      await file.commit();
    } catch (error) {
      if (previous !== undefined) await rm(previous, { force: true });
      await putBack(moved, error);
      throw error;
    }
    moved.push({ path: file.path, previous });
  }
  for (const { previous } of moved) if (previous !== undefined) await rm(previous, { force: true });
}

/**
 * A second name for the file at `path` (a hard link; a copy where links are not possible), so it
 * can be put back after its replacement.
 * @returns the second name, or undefined when there is no file at `path`
 */
async function keepPrevious(path: string): Promise<string | undefined> {
  const kept = keptNameOf(path);
  await rm(kept, { force: true });
  try {
    await link(path, kept);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    await writingFile(path, () => copyFile(path, kept));
  }
  return kept;
}

/**
 * Puts the moved files back: each target's previous file, or no file where there was none.
 * @throws Error naming the files that could not be put back (with the failed move as its cause)
 */
async function putBack(
  moved: readonly { readonly path: string; readonly previous: string | undefined }[],
  cause: unknown,
): Promise<void> {
  const notPutBack: string[] = [];
  for (const { path, previous } of moved) {
    try {
      if (previous === undefined) await rm(path, { force: true });
      else await rename(previous, path);
    } catch {
      notPutBack.push(path);
    }
  }
  if (notPutBack.length > 0)
    throw new FileWriteError(
      notPutBack[0] as string,
      `${(cause as Error).message}; the previous version of ${notPutBack.join(', ')} could not be put back (the new one is in place)`,
    );
}
