import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** What a lock file holds: who runs, since when. */
interface LockHolder {
  readonly pid: number;
  readonly startedAt: string;
}

/** A held run lock. */
export interface RunLock {
  /** The lock file. */
  readonly path: string;
  /** The pid of a run that had died holding the lock, when this run took the lock over from one. */
  readonly tookOverFrom: number | undefined;
  /** Removes the lock file (also done when the process exits without calling this). */
  release(): void;
}

/** The outcome of {@link acquireRunLock}. */
export type RunLockResult =
  | { readonly ok: true; readonly lock: RunLock }
  | { readonly ok: false; readonly problem: string };

/**
 * Whether a process runs: signal 0 checks without signalling. EPERM means it runs as another user.
 * @param pid - the process id
 * @returns true when it runs
 */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holderOf(path: string): LockHolder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockHolder>;
    return typeof parsed.pid === 'number'
      ? { pid: parsed.pid, startedAt: String(parsed.startedAt) }
      : undefined;
  } catch {
    return undefined;
  }
}

function created(path: string, holder: LockHolder): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, `${JSON.stringify(holder)}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Takes the lock of a live or paper run's outputs: `<result>.lock` next to its result JSON, so
 * two runs of one config (the same account, the same recording, result and kill-switch files)
 * cannot run at once (Keel's choice of what a run owns). The file is created exclusively and
 * holds the pid; a lock whose process no longer runs (a run killed with -9) is taken over. It is
 * removed when the lock is released or the process exits.
 * @param resultPath - the run's result JSON path
 * @param startedAt - when this run started, epoch ms (written into the lock)
 * @param runs - whether a pid runs (injected in tests)
 * @returns the lock, or the problem naming the run that holds it
 */
export function acquireRunLock(
  resultPath: string,
  startedAt: number,
  runs: (pid: number) => boolean = processRuns,
): RunLockResult {
  const path = `${resultPath}.lock`;
  mkdirSync(dirname(path), { recursive: true });
  const mine: LockHolder = { pid: process.pid, startedAt: new Date(startedAt).toISOString() };
  let tookOverFrom: number | undefined;
  for (let attempt = 1; !created(path, mine); attempt++) {
    const holder = holderOf(path);
    if (holder !== undefined && runs(holder.pid))
      return {
        ok: false,
        problem: `another Keel run (pid ${holder.pid}, started ${holder.startedAt}) is writing ${resultPath}: stop it first, or give this run another name or report.json (lock ${path})`,
      };
    // A lock left by a run that died (or a lock file it never finished writing): taken over.
    if (attempt > 2) throw new Error(`cannot replace the stale lock ${path}`);
    tookOverFrom = holder?.pid;
    unlinkSync(path);
  }
  const onExit = () => removeIfMine(path);
  process.once('exit', onExit);
  return {
    ok: true,
    lock: {
      path,
      tookOverFrom,
      release: () => {
        process.off('exit', onExit);
        removeIfMine(path);
      },
    },
  };
}

function removeIfMine(path: string): void {
  if (holderOf(path)?.pid !== process.pid) return;
  try {
    unlinkSync(path);
  } catch {
    // Already gone: nothing to release.
  }
}
