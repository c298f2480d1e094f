import { join } from 'node:path';
import { acquireRunLock, type RunLock } from '../report/index.ts';

/**
 * Thrown by `startPaperVenue` on a data dir another running venue holds: two venues on one data
 * dir journal their commands into one log, and a restart then loses orders each acknowledged.
 */
export class DataDirInUseError extends Error {
  /**
   * @param dataDir - the data dir
   * @param heldBy - the process holding it, e.g. `another Keel run (pid 7, started ...)`
   * @param lock - its lock file
   */
  constructor(
    readonly dataDir: string,
    heldBy: string,
    lock: string,
  ) {
    super(
      `${heldBy} holds the paper venue's data dir ${dataDir}: stop it first, or give this venue another data dir (lock ${lock})`,
    );
    this.name = 'DataDirInUseError';
  }
}

/**
 * Takes the lock of a paper venue's data dir (`paper-venue.lock` in it), by the rules of a run's
 * output locks (`acquireRunLock`): held while the venue runs, its heartbeat refreshed; the lock of
 * a venue that is gone (killed, crashed) is taken over.
 * @param dataDir - the data dir
 * @param now - the wall clock, epoch ms (written into the lock)
 * @returns the lock; release it when the venue closes
 * @throws DataDirInUseError when another running venue holds it
 */
export function lockDataDir(dataDir: string, now: number): RunLock {
  // The lock of the venue's files, `paper-venue.*`: `paper-venue.lock`.
  const taken = acquireRunLock([join(dataDir, 'paper-venue')], now);
  if (!taken.ok) throw new DataDirInUseError(dataDir, taken.heldBy, taken.lock);
  return taken.lock;
}
