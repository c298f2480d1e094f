import {
  closeSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  HEARTBEAT_MS,
  heartbeatAgeOf,
  hostProbe,
  identityFrom,
  judgeHolder,
  type ProcessProbe,
  processIdentity,
} from './process-identity.ts';

/**
 * A spill directory made in another pid namespace (container) or on another host sharing the
 * temporary directory, whose process cannot be probed, is removed once its heartbeat is this old.
 * Longer than a run lock's: removing a live run's files fails it, a leftover only takes space.
 */
export const SPILL_STALE_AFTER_MS = 10 * 60_000;

/** The file in each spill directory naming its process (`ProcessIdentity`); its mtime is the heartbeat. */
const OWNER_FILE = '.keel-owner.json';

/** Directories still to remove when the process exits. */
const live = new Set<string>();
let exitHookInstalled = false;
let heartbeat: NodeJS.Timeout | undefined;
/** Temporary directories already swept for leftovers of dead processes. */
const swept = new Set<string>();

/** `<prefix><pid>-XXXXXX`: the pid of the process that made a spill directory. */
const OWNED = /^keel-(?:[a-z]+-)+(\d+)-[A-Za-z0-9]{6}$/;

/** Whether the process that made a spill directory is gone, by its owner file (see `judgeHolder`). */
function ownerGone(path: string, pid: number, probe: ProcessProbe, now: number): boolean {
  const owner = join(path, OWNER_FILE);
  let text: string;
  try {
    text = readFileSync(owner, 'utf8');
  } catch {
    // None: made by an older Keel, or its maker has not written it yet. Gone only when the pid
    // runs nothing here and the directory is old, since its maker may run in another namespace.
    if (pid === probe.pid || probe.runs(pid)) return false;
    const age = heartbeatAgeOf(path, now);
    return age !== undefined && age >= SPILL_STALE_AFTER_MS;
  }
  const holder = identityFrom(JSON.parse(text));
  if (holder === undefined) return false;
  return !judgeHolder(holder, {
    probe,
    heartbeatAgeMs: heartbeatAgeOf(owner, now),
    staleAfterMs: SPILL_STALE_AFTER_MS,
  }).live;
}

/**
 * Removes the spill directories of processes that are gone: a process killed by a signal (a
 * test worker stopped by its runner, a container stopped) runs no exit hook, so the next spill
 * directory made in the same temporary directory cleans up after it. Only directories whose
 * process is provably gone go (see `judgeHolder`): in this pid namespace, boot and host, its pid
 * runs nothing or a process started since; elsewhere (a container sharing the temporary
 * directory), its heartbeat is {@link SPILL_STALE_AFTER_MS} old.
 * @param dir - the temporary directory
 * @param probe - the machine (injected in tests)
 * @param now - the wall clock, epoch ms (injected in tests)
 */
export function removeDeadSpillDirectories(
  dir: string,
  probe: ProcessProbe = hostProbe,
  now = Date.now(),
): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = OWNED.exec(name)?.[1];
    if (pid === undefined) continue;
    const path = join(dir, name);
    if (live.has(path)) continue;
    let gone: boolean;
    try {
      gone = ownerGone(path, Number(pid), probe, now);
    } catch {
      // An owner file half written: its maker runs.
      gone = false;
    }
    if (gone) rmSync(path, { recursive: true, force: true });
  }
}

function sweepLeftovers(dir: string): void {
  if (swept.has(dir)) return;
  swept.add(dir);
  removeDeadSpillDirectories(dir);
}

/** Touches the owner file of each live directory, so processes elsewhere see this one runs. */
function beat(): void {
  const now = Date.now() / 1000;
  for (const dir of live) {
    try {
      utimesSync(join(dir, OWNER_FILE), now, now);
    } catch {
      // Removed meanwhile: nothing to keep alive.
    }
  }
}

function forgetLive(dir: string): void {
  live.delete(dir);
  if (live.size === 0 && heartbeat !== undefined) {
    clearInterval(heartbeat);
    heartbeat = undefined;
  }
}

function removeAllOnExit(): void {
  for (const dir of live) rmSync(dir, { recursive: true, force: true });
  live.clear();
  clearInterval(heartbeat);
  heartbeat = undefined;
}

/**
 * A temporary directory of its own for one run's spill files (`<os tmpdir>/keel-run-<pid>-XXXXXX`,
 * or inside another spill directory, as a sweep's backtests make theirs inside the sweep's),
 * removed by {@link SpillDirectory.dispose} or, at the latest, when the process exits normally.
 * A process killed by a signal runs no exit hook: its directories are removed by the next
 * process that makes one in the same temporary directory once it is provably gone (the owner file
 * in each names its process; see {@link removeDeadSpillDirectories}).
 */
export class SpillDirectory {
  /** The directory's absolute path. */
  readonly path: string;
  private disposed = false;
  /** Descriptors of files being written in it ({@link SpillDirectory.open}), closed by {@link dispose}. */
  private readonly writing = new Set<number>();

  /**
   * Creates the directory.
   * @param prefix - start of the directory's name: `keel-`, a lower-case word and `-`, e.g. `keel-backtest-`
   * @param base - where it is made; default the OS temporary directory
   * @throws Error (from fs) when the temporary directory is not writable
   */
  constructor(prefix = 'keel-run-', base = tmpdir()) {
    sweepLeftovers(base);
    this.path = mkdtempSync(join(base, `${prefix}${process.pid}-`));
    writeFileSync(join(this.path, OWNER_FILE), `${JSON.stringify(processIdentity())}\n`);
    live.add(this.path);
    if (heartbeat === undefined) {
      heartbeat = setInterval(beat, HEARTBEAT_MS);
      heartbeat.unref();
    }
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

  /**
   * Creates (or empties) a file inside the directory for writing; {@link dispose} closes it if
   * {@link SpillDirectory.close} did not (a run that failed while writing it).
   * @param path - the file's path, from {@link SpillDirectory.file}
   * @returns its descriptor
   * @throws Error (from fs) when it cannot be created
   */
  open(path: string): number {
    const fd = openSync(path, 'w');
    this.writing.add(fd);
    return fd;
  }

  /**
   * Closes a file {@link SpillDirectory.open} opened.
   * @param fd - its descriptor
   */
  close(fd: number): void {
    if (this.writing.delete(fd)) closeSync(fd);
  }

  /** Whether {@link dispose} ran. */
  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Closes the files still being written, removes the directory and everything in it; calling it again does nothing. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const fd of this.writing) closeSync(fd);
    this.writing.clear();
    forgetLive(this.path);
    rmSync(this.path, { recursive: true, force: true });
  }
}
