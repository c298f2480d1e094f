import { open, rename, rm } from 'node:fs/promises';

/** Characters gathered before one write to disk. */
const WRITE_CHARS = 1 << 20;

/** A file written under a temporary name beside its target, not in place yet. */
export interface StagedFile {
  /** The target path. */
  readonly path: string;
  /** Moves the file to its target path, replacing what was there in one step. */
  commit(): Promise<void>;
  /** Removes the temporary file (after a failure elsewhere); does nothing once committed. */
  discard(): Promise<void>;
}

/**
 * Writes text given in pieces to a temporary file beside `path` (`<path>.partial`), gathering
 * them into writes of about 1 MiB, so a large file streams to disk without its whole text in
 * memory. Nothing replaces `path` until {@link StagedFile.commit}: a run stopped while writing
 * (Ctrl-C, a full disk) leaves the previous file whole.
 * @param path - the file to create or replace
 * @param chunks - the text in order (e.g. from `stableJsonChunks` or a CSV line generator)
 * @param signal - when aborted, the writing stops at its next write
 * @returns the staged file
 * @throws Error (from fs) when the file cannot be written, what producing a chunk throws, or the
 *   signal's reason; the temporary file is removed then
 */
export async function stageTextFile(
  path: string,
  chunks: Iterable<string>,
  signal?: AbortSignal,
): Promise<StagedFile> {
  const temporary = `${path}.partial`;
  const handle = await open(temporary, 'w');
  try {
    let pending: string[] = [];
    let size = 0;
    for (const chunk of chunks) {
      pending.push(chunk);
      size += chunk.length;
      if (size >= WRITE_CHARS) {
        signal?.throwIfAborted();
        await handle.write(pending.join(''));
        pending = [];
        size = 0;
      }
    }
    if (pending.length > 0) await handle.write(pending.join(''));
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  let committed = false;
  return {
    path,
    commit: async () => {
      await rename(temporary, path);
      committed = true;
    },
    discard: async () => {
      if (!committed) await rm(temporary, { force: true });
    },
  };
}

/**
 * Writes text given in pieces to a file through {@link stageTextFile}: the file is replaced
 * whole or not at all.
 * @param path - the file to create or replace
 * @param chunks - the text in order
 * @returns the path written
 * @throws Error (from fs) when the file cannot be written, or what producing a chunk throws
 */
export async function writeTextFile(path: string, chunks: Iterable<string>): Promise<string> {
  await (await stageTextFile(path, chunks)).commit();
  return path;
}

/**
 * Writes several files as one: each under a temporary name first, and all moved in place only
 * once every one is written, so a run stopped while writing (Ctrl-C, a full disk, a failing
 * record) leaves the previous files whole rather than a cut-off file or a mix of two runs' files.
 * @param files - each file's path and text in pieces, written in this order
 * @param signal - when aborted, the writing stops before any file is moved in place (a stopped
 *   run's files are never taken for a whole run's)
 * @returns the paths written, in order
 * @throws Error (from fs, or what producing a piece throws), or the signal's reason, after
 *   removing the temporary files
 */
export async function writeTextFilesTogether(
  files: readonly (readonly [path: string, chunks: Iterable<string>])[],
  signal?: AbortSignal,
): Promise<string[]> {
  const staged: StagedFile[] = [];
  try {
    for (const [path, chunks] of files) {
      signal?.throwIfAborted();
      staged.push(await stageTextFile(path, chunks, signal));
    }
    signal?.throwIfAborted();
  } catch (error) {
    await Promise.all(staged.map((file) => file.discard()));
    throw error;
  }
  for (const file of staged) await file.commit();
  return staged.map((file) => file.path);
}
