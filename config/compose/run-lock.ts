import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { processRuns } from '../../backtest/report/index.ts';

/** What a lock file holds: who runs, since when. */
interface LockHolder {
  readonly pid: number;
  readonly startedAt: string;
}

/** A held run lock. */
export interface RunLock {
  /** The lock files, one per output. */
  readonly paths: readonly string[];
  /** The locks taken over from runs that had died holding them: lock file and that run's pid. */
  readonly tookOver: readonly { readonly path: string; readonly pid: number }[];
  /** Removes the lock files (also done when the process exits without calling this). */
  release(): void;
}

/** The outcome of {@link acquireRunLock}. */
export type RunLockResult =
  | { readonly ok: true; readonly lock: RunLock }
  | { readonly ok: false; readonly problem: string };

/** Thrown by a command that cannot take the lock of its output: a usage problem (exit 2), not a failure. */
export class OutputLocked extends Error {}

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
 * Takes the lock of each output a live or paper run (or a recording) writes: `<output>.lock` next
 * to its result JSON and next to its recording, so two runs writing one file (the same account,
 * recording, result and kill-switch files; or two configs sharing a recording path, the second of
 * which would move the first one's recording aside while it is written) cannot run at once
 * (Keel's choice of what a run owns). Each file is created exclusively and holds the pid; a lock
 * whose process no longer runs (a run killed with -9) is taken over. They are removed when the
 * lock is released or the process exits; none is kept when one cannot be taken.
 * @param outputs - the files the run writes
 * @param startedAt - when this run started, epoch ms (written into the locks)
 * @param runs - whether a pid runs (injected in tests)
 * @returns the lock, or the problem naming the run that holds one of its files
 */
export function acquireRunLock(
  outputs: readonly string[],
  startedAt: number,
  runs: (pid: number) => boolean = processRuns,
): RunLockResult {
  const mine: LockHolder = { pid: process.pid, startedAt: new Date(startedAt).toISOString() };
  const paths: string[] = [];
  const tookOver: { path: string; pid: number }[] = [];
  const releaseAll = () => {
    for (const path of paths) removeIfMine(path);
  };
  for (const output of new Set(outputs)) {
    const path = `${output}.lock`;
    let taken: LockHolder | number | undefined;
    try {
      taken = lockFile(path, mine, runs);
    } catch (error) {
      releaseAll();
      throw error;
    }
    if (typeof taken === 'object') {
      releaseAll();
      return {
        ok: false,
        problem: `another Keel run (pid ${taken.pid}, started ${taken.startedAt}) is writing ${output}: stop it first, or give this run another name, report.json or recording path (lock ${path})`,
      };
    }
    paths.push(path);
    if (typeof taken === 'number') tookOver.push({ path, pid: taken });
  }
  process.once('exit', releaseAll);
  return {
    ok: true,
    lock: {
      paths,
      tookOver,
      release: () => {
        process.off('exit', releaseAll);
        releaseAll();
      },
    },
  };
}

/**
 * Creates one lock file, taking over a stale one.
 * @returns the live holder when another run holds it; the pid of a dead holder taken over; else undefined
 */
function lockFile(
  path: string,
  mine: LockHolder,
  runs: (pid: number) => boolean,
): LockHolder | number | undefined {
  mkdirSync(dirname(path), { recursive: true });
  let tookOverFrom: number | undefined;
  for (let attempt = 1; !created(path, mine); attempt++) {
    const holder = holderOf(path);
    if (holder !== undefined && runs(holder.pid)) return holder;
    // A lock left by a run that died (or a lock file it never finished writing): taken over.
    if (attempt > 2) throw new Error(`cannot replace the stale lock ${path}`);
    tookOverFrom = holder?.pid;
    unlinkSync(path);
  }
  return tookOverFrom;
}

function removeIfMine(path: string): void {
  if (holderOf(path)?.pid !== process.pid) return;
  try {
    unlinkSync(path);
  } catch {
    // Already gone: nothing to release.
  }
}
