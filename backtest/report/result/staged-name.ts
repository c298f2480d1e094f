import { readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** How a staged file's name ends unless told otherwise: `.<name>.<pid>.partial`. */
const STAGED_ENDING = '.partial';

/** How the name a file's previous version is kept under while it is replaced ends: see {@link keptNameOf}. */
const KEPT_ENDING = '.previous';

/**
 * The temporary name a file is written under before it replaces `path`: hidden, and naming the
 * process that writes it (`.r.json.4242.partial` beside `r.json`), so a run killed while writing
 * leaves nothing a user or a tool would take for a result.
 * @param path - the target file
 * @param ending - how the name ends (`.partial`; one a reader needs, e.g. `.partial.jsonl.gz`)
 * @param pid - the writing process (this one by default)
 * @returns the staged file's path, in the target's directory
 */
export function stagedNameOf(
  path: string,
  ending: string = STAGED_ENDING,
  pid: number = process.pid,
): string {
  return join(dirname(path), `.${basename(path)}.${pid}${ending}`);
}

/**
 * The name a file's previous version is kept under while a group of files replaces theirs, so a
 * failed move can put it back: hidden, naming the process.
 * @param path - the target file
 * @returns the kept file's path, in the target's directory
 */
export function keptNameOf(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}${KEPT_ENDING}`);
}

/**
 * Removes what killed runs left while writing `path`: staged files of processes no longer running,
 * the previous versions they kept while committing a group of files (see {@link keptNameOf}; the
 * write about to start replaces the file all the same), and the `<path><ending>` an older Keel
 * staged under. A file of a process still running is left alone (it may be writing now).
 * @param path - the target about to be written
 * @param ending - how its staged files' names end (as given to {@link stagedNameOf})
 */
export async function removeStaleStagedFiles(path: string, ending: string = STAGED_ENDING): Promise<void> {
  const prefix = `.${basename(path)}.`;
  let names: string[];
  try {
    names = await readdir(dirname(path));
  } catch {
    // The directory cannot be listed: opening the staged file says why.
    return;
  }
  const stale = names.filter((name) => {
    if (name === `${basename(path)}${ending}`) return true;
    if (!name.startsWith(prefix)) return false;
    const end = [ending, KEPT_ENDING].find((candidate) => name.endsWith(candidate));
    if (end === undefined) return false;
    const pid = name.slice(prefix.length, -end.length);
    return /^\d+$/.test(pid) && Number(pid) !== process.pid && !isRunning(Number(pid));
  });
  await Promise.all(stale.map((name) => rm(join(dirname(path), name), { force: true })));
}

/** Whether a process with this id runs (one of another user counts as running). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
