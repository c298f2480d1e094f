import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Directories still to remove when the process exits. */
const live = new Set<string>();
let exitHookInstalled = false;

function removeAllOnExit(): void {
  for (const dir of live) rmSync(dir, { recursive: true, force: true });
  live.clear();
}

/**
 * A temporary directory of its own for one run's spill files (`<os tmpdir>/keel-run-XXXXXX`),
 * removed by {@link SpillDirectory.dispose} or, at the latest, when the process exits normally
 * (a process killed by a signal it does not handle leaves it behind: the OS's tmp cleaning
 * then removes it).
 */
export class SpillDirectory {
  /** The directory's absolute path. */
  readonly path: string;
  private disposed = false;

  /**
   * Creates the directory.
   * @param prefix - start of the directory's name, e.g. `keel-backtest-`
   * @throws Error (from fs) when the temporary directory is not writable
   */
  constructor(prefix = 'keel-run-') {
    this.path = mkdtempSync(join(tmpdir(), prefix));
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
