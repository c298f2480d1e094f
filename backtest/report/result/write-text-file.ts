import { open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { openPrivate } from '../../files/index.ts';
import { commitTogether, type StagedFile } from './commit-together.ts';
import { writingFile } from './file-write-error.ts';
import { removeStaleStagedFiles, stagedNameOf } from './staged-name.ts';

/** Characters gathered before one write to disk. */
const WRITE_CHARS = 1 << 20;

/**
 * Writes text given in pieces to a hidden temporary file beside `path` (`.<name>.<pid>.partial`,
 * see `stagedNameOf`), readable by its owner only (0600, see `openPrivate`: a live run's
 * result holds the account's orders, fills and balances), gathering them into writes of about 1 MiB, so a large file streams to disk
 * without its whole text in memory. Every byte is written (a write the disk cuts short is carried
 * on, and fails when the disk is full) and flushed to disk before the file is staged. Nothing
 * replaces `path` until {@link StagedFile.commit}: a run stopped while writing (Ctrl-C, a full
 * disk) leaves the previous file whole. Staged files that killed runs left for `path` are removed
 * first.
 * @param path - the file to create or replace
 * @param chunks - the text in order (e.g. from `stableJsonChunks` or a CSV line generator)
 * @param signal - when aborted, the writing stops at its next write
 * @returns the staged file
 * @throws FileWriteError naming `path` when the file cannot be written (a full disk), what
 *   producing a chunk throws, or the signal's reason; the temporary file is removed then
 */
export async function stageTextFile(
  path: string,
  chunks: Iterable<string>,
  signal?: AbortSignal,
): Promise<StagedFile> {
  await removeStaleStagedFiles(path);
  const temporary = stagedNameOf(path);
  // A temporary file a killed run left keeps its mode when opened: `openPrivate` sets it, as the
  // file moved in place (a new inode) takes no mode from the file it replaces.
  const handle = await writingFile(path, () => openPrivate(temporary, 'w')).catch(async (error: unknown) => {
    // What opening it left (a file it could not make private) goes; what stands in its way (a
    // directory) stays, and the error says why the file could not be written, not why rm failed.
    await rm(temporary, { force: true }).catch(() => {});
    throw error;
  });
  try {
    let pending: string[] = [];
    let size = 0;
    for (const chunk of chunks) {
      pending.push(chunk);
      size += chunk.length;
      if (size >= WRITE_CHARS) {
        signal?.throwIfAborted();
        await writingFile(path, () => handle.writeFile(pending.join('')));
        pending = [];
        size = 0;
      }
    }
    if (pending.length > 0) await writingFile(path, () => handle.writeFile(pending.join('')));
    await writingFile(path, () => handle.sync());
  } catch (error) {
    await handle.close().catch(() => {});
    await rm(temporary, { force: true });
    throw error;
  }
  try {
    await writingFile(path, () => handle.close());
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  let committed = false;
  return {
    path,
    commit: async () => {
      await writingFile(path, () => rename(temporary, path));
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
 * @throws FileWriteError naming the file when it cannot be written or moved in place, or what
 *   producing a chunk throws; no temporary file is left then
 */
export async function writeTextFile(path: string, chunks: Iterable<string>): Promise<string> {
  await writeTextFilesTogether([[path, chunks]]);
  return path;
}

/**
 * Writes several files as one: each under a temporary name first, and all moved in place only
 * once every one is written, so a run stopped while writing (Ctrl-C, a full disk, a failing
 * record) leaves the previous files whole rather than a cut-off file or a mix of two runs' files.
 * Before the first move every target is checked (a directory where a file goes stops the write);
 * a move that fails all the same puts back the files already moved (the previous ones, or none
 * where there was none).
 * @param files - each file's path and text in pieces, written in this order
 * @param signal - when aborted, the writing stops before any file is moved in place (a stopped
 *   run's files are never taken for a whole run's)
 * @returns the paths written, in order
 * @throws FileWriteError naming the file that could not be written or moved, what producing a
 *   piece throws, or the signal's reason, after removing the temporary files
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
    await commitTogether(staged);
  } catch (error) {
    await Promise.all(staged.map((file) => file.discard()));
    throw error;
  }
  await syncDirectories(staged.map((file) => file.path));
  return staged.map((file) => file.path);
}

/** Flushes the directories' entries (the moves) to disk; where a directory cannot be, its files are in place all the same. */
async function syncDirectories(paths: readonly string[]): Promise<void> {
  for (const dir of new Set(paths.map((path) => dirname(path)))) {
    try {
      const handle = await open(dir, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    } catch {
      // Some file systems cannot sync a directory: the files are whole, only their moves may wait.
    }
  }
}
