import { chmodSync, closeSync, existsSync, fchmodSync, mkdirSync, openSync, statSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/**
 * The mode of the files Keel writes (results, reports, recordings, run locks, a paper venue's
 * data dir, the kill switch's state): read and written by their owner only, since a live or paper
 * run's hold the account's orders, fills and balances.
 */
export const PRIVATE_FILE_MODE = 0o600;

/** The mode of the directories Keel creates for them: entered by their owner only. */
export const PRIVATE_DIR_MODE = 0o700;

/**
 * Whether this system applies file modes. Windows keeps only a read-only flag (its ACLs decide
 * who reads a file): there Keel leaves modes alone.
 */
const MODES_APPLY = process.platform !== 'win32';

/**
 * Errors of a file system that keeps no modes (a FAT or SMB mount): the file is written all the
 * same, as it would be there by any program.
 */
const NO_MODES = new Set(['EPERM', 'ENOTSUP', 'ENOSYS', 'EOPNOTSUPP']);

/**
 * Lets an error of a file system that keeps no modes pass ({@link NO_MODES}); throws any other.
 * @param error - what setting a mode threw
 */
function allowNoModes(error: unknown): void {
  if (!NO_MODES.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
}

/**
 * Sets an open file to {@link PRIVATE_FILE_MODE}, whatever mode it had: a file that already
 * existed (an earlier run's, a crashed write's temporary) keeps its mode when opened, and a mode
 * given at creation is narrowed by the umask only.
 * @param fd - the open file's descriptor
 * @throws the file system's error, unless it keeps no modes
 */
export function makePrivateSync(fd: number): void {
  if (!MODES_APPLY) return;
  try {
    fchmodSync(fd, PRIVATE_FILE_MODE);
  } catch (error) {
    allowNoModes(error);
  }
}

/**
 * {@link makePrivateSync} of a file handle.
 * @param handle - the open file
 * @throws the file system's error, unless it keeps no modes
 */
export async function makePrivate(handle: FileHandle): Promise<void> {
  if (!MODES_APPLY) return;
  await handle.chmod(PRIVATE_FILE_MODE).catch(allowNoModes);
}

/**
 * {@link makePrivateSync} of a file by its path (one appended to without keeping it open).
 * @param path - the file
 * @throws the file system's error, unless it keeps no modes
 */
export function makePathPrivateSync(path: string): void {
  if (!MODES_APPLY) return;
  try {
    chmodSync(path, PRIVATE_FILE_MODE);
  } catch (error) {
    allowNoModes(error);
  }
}

/**
 * Opens a file as `openSync` does, created {@link PRIVATE_FILE_MODE} and set to it when it existed
 * ({@link makePrivateSync}); closed again when that fails.
 * @param path - the file
 * @param flags - how it is opened (`w`, `a`...)
 * @returns its descriptor
 * @throws the file system's error
 */
export function openPrivateSync(path: string, flags: 'a' | 'w'): number {
  const fd = openSync(path, flags, PRIVATE_FILE_MODE);
  try {
    makePrivateSync(fd);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}

/**
 * Opens a file as `fs/promises` `open` does, created {@link PRIVATE_FILE_MODE} and set to it when it
 * existed ({@link makePrivate}); closed again when that fails.
 * @param path - the file
 * @param flags - how it is opened (`w`, `a`...)
 * @returns its handle
 * @throws the file system's error
 */
export async function openPrivate(path: string, flags: 'a' | 'w'): Promise<FileHandle> {
  const handle = await open(path, flags, PRIVATE_FILE_MODE);
  try {
    await makePrivate(handle);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

/**
 * Writes a whole file as `fs/promises` `writeFile` does, opened by {@link openPrivate}: created
 * {@link PRIVATE_FILE_MODE}, and set to it when it existed.
 * @param path - the file
 * @param text - its whole content
 * @throws the file system's error
 */
export async function writePrivateFile(path: string, text: string): Promise<void> {
  const handle = await openPrivate(path, 'w');
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
}

/**
 * Makes a directory and its missing parents, each one created {@link PRIVATE_DIR_MODE} (narrowed
 * by the umask); directories that exist are left as they are (the user's own, or a shared `out/`).
 * The parents are made one by one, from the top, rather than by `mkdir`'s `recursive` option:
 * Node's recursive mkdir never returns under a pseudo file system that answers ENOENT for a
 * folder it will not hold (`/proc/x/out`: it makes the existing parent again and retries,
 * spinning a core, the event loop stopped), where this walk fails with that ENOENT.
 * @param dir - the directory
 * @throws the file system's error (a file in its place, a folder that cannot be made)
 */
export function makePrivateDirSync(dir: string): void {
  const missing: string[] = [];
  for (let at = resolve(dir); !existsSync(at); at = dirname(at)) {
    missing.push(at);
    if (dirname(at) === at) break;
  }
  // A file where the directory goes is refused as the recursive option refuses it (EEXIST).
  if (missing.length === 0 && !statSync(dir).isDirectory()) mkdirSync(dir, { mode: PRIVATE_DIR_MODE });
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder, { mode: PRIVATE_DIR_MODE });
    } catch (error) {
      // Made meanwhile by another run: as good as made here.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(folder).isDirectory()) throw error;
    }
  }
}

/**
 * {@link makePrivateDirSync}, for asynchronous callers: a handful of `mkdir` calls, each as quick
 * as the event loop's own turn.
 * @param dir - the directory
 * @throws the file system's error (a file in its place, a folder that cannot be made)
 */
export async function makePrivateDir(dir: string): Promise<void> {
  makePrivateDirSync(dir);
}
