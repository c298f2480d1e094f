import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processRuns } from './process-runs.ts';

/** Directories still to remove when the process exits. */
const live = new Set<string>();
let exitHookInstalled = false;
/** Temporary directories already swept for leftovers of dead processes. */
const swept = new Set<string>();

/** `<prefix><pid>-XXXXXX`: the pid of the process that made a spill directory. */
const OWNED = /^keel-(?:[a-z]+-)+(\d+)-[A-Za-z0-9]{6}$/;

/**
 * Removes the spill directories of processes that are gone: a process killed by a signal (a
 * test worker stopped by its runner, Ctrl-C on a tool without a handler) runs no exit hook, so
 * the next spill directory made in the same temporary directory cleans up after it.
 */
function sweepLeftovers(dir: string): void {
  if (swept.has(dir)) return;
  swept.add(dir);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const owner = OWNED.exec(name)?.[1];
    if (owner === undefined || Number(owner) === process.pid || processRuns(Number(owner))) continue;
    rmSync(join(dir, name), { recursive: true, force: true });
  }
}

function removeAllOnExit(): void {
  for (const dir of live) rmSync(dir, { recursive: true, force: true });
  live.clear();
}

/**
 * A temporary directory of its own for one run's spill files (`<os tmpdir>/keel-run-<pid>-XXXXXX`),
 * removed by {@link SpillDirectory.dispose} or, at the latest, when the process exits normally.
 * A process killed by a signal runs no exit hook: its directories are removed by the next
 * process that makes one in the same temporary directory (the pid in the name tells whose they
 * are and whether that process is gone).
 */
export class SpillDirectory {
  /** The directory's absolute path. */
  readonly path: string;
  private disposed = false;

  /**
   * Creates the directory.
   * @param prefix - start of the directory's name: `keel-`, a lower-case word and `-`, e.g. `keel-backtest-`
   * @throws Error (from fs) when the temporary directory is not writable
   */
  constructor(prefix = 'keel-run-') {
    const base = tmpdir();
    sweepLeftovers(base);
    this.path = mkdtempSync(join(base, `${prefix}${process.pid}-`));
    live.add(this.path);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.once('exit', removeAllOnExit);
    }
  }

  /**
   * A path inside the directory.
   * @param name - a file name
   * @returns the file's path
   * @throws Error when the directory was already removed
   */
  file(name: string): string {
    if (this.disposed)
      throw new Error(`spill directory ${this.path} was removed; nothing more can be written to it`);
    return join(this.path, name);
  }

  /** Whether {@link dispose} ran. */
  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Removes the directory and everything in it; calling it again does nothing. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    live.delete(this.path);
    rmSync(this.path, { recursive: true, force: true });
  }
}
