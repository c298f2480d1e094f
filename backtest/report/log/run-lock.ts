import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  linkSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { makePrivateDirSync, PRIVATE_FILE_MODE } from '../../files/index.ts';
import {
  HEARTBEAT_MS,
  heartbeatAgeOf,
  hostProbe,
  identityFrom,
  judgeHolder,
  type ProcessIdentity,
  type ProcessProbe,
  processIdentity,
  sameProcess,
} from './process-identity.ts';

/**
 * A lock held from another pid namespace (container) or host, whose process cannot be probed, is
 * taken over once its heartbeat is this old: six missed beats (a backtest's event loop stalls
 * for a few seconds at most while it writes its result).
 */
export const LOCK_STALE_AFTER_MS = 30_000;

/** What a lock file holds: who runs, since when. */
interface LockHolder extends ProcessIdentity {
  readonly startedAt: string;
  /**
   * Random, one per acquisition: a release removes the file only while it still holds this token, so a
   * lock released twice never removes the lock this process (or another) took on that path since.
   */
  readonly token?: string;
}

/** A lock taken over from a run that had died holding it. */
export interface StaleLock {
  /** The lock file. */
  readonly path: string;
  /** That run's pid. */
  readonly pid: number;
  /** Why it was taken for dead, e.g. `no longer runs`. */
  readonly why: string;
}

/** A held run lock. */
export interface RunLock {
  /** The lock files, one per output. */
  readonly paths: readonly string[];
  /** The locks taken over from runs that had died holding them. */
  readonly tookOver: readonly StaleLock[];
  /**
   * Removes the lock files and stops their heartbeat (also done when the process exits without calling
   * this); once: a second call does nothing, whoever holds those paths since.
   */
  release(): void;
}

/**
 * The warning a run gives for a lock it took over.
 * @param stale - the lock taken over
 * @returns e.g. `took over the lock out/a.json.lock of an earlier Keel run (pid 7) that no longer runs`
 */
export function tookOverWarning(stale: StaleLock): string {
  return `took over the lock ${stale.path} of an earlier Keel run (pid ${stale.pid}) that ${stale.why}`;
}

/** The outcome of {@link acquireRunLock}. */
export type RunLockResult =
  | { readonly ok: true; readonly lock: RunLock }
  | {
      readonly ok: false;
      /** Which run holds which output, and what to do about it: for a run's outputs. */
      readonly problem: string;
      /** The run holding the lock, e.g. `another Keel run (pid 7, started 2026-01-01T00:00:00.000Z)`. */
      readonly heldBy: string;
      /** The lock file it holds. */
      readonly lock: string;
    };

/** What a run lock reads and runs on (injected in tests). */
export interface LockEnvironment {
  /** /proc and the process table. */
  readonly probe: ProcessProbe;
  /** The wall clock, epoch ms: heartbeat times and ages. */
  readonly now: () => number;
  /**
   * Calls `beat` every `ms` until the returned function is called, without keeping the process alive.
   * @returns stops the calls
   */
  readonly every: (ms: number, beat: () => void) => () => void;
}

const systemEnvironment: LockEnvironment = {
  probe: hostProbe,
  now: Date.now,
  every: (ms, beat) => {
    const timer = setInterval(beat, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};

/** The lock files this process holds (absolute paths): a lock naming this pid but not here is stale. */
const held = new Set<string>();

/** Thrown by a command that cannot take the lock of its output: a usage problem (exit 2), not a failure. */
export class OutputLocked extends Error {}

/** The text of a lock file; undefined when it is gone. */
function textOf(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function holderOf(path: string): LockHolder | undefined {
  const text = textOf(path);
  return text === undefined ? undefined : holderIn(text);
}

function holderIn(text: string): LockHolder | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    const identity = identityFrom(parsed);
    return identity === undefined
      ? undefined
      : { ...identity, startedAt: String((parsed as { startedAt?: unknown }).startedAt), ...tokenIn(parsed) };
  } catch {
    return undefined;
  }
}

function tokenIn(parsed: unknown): { token?: string } {
  const token = (parsed as { token?: unknown }).token;
  return typeof token === 'string' ? { token } : {};
}

function created(path: string, holder: LockHolder): boolean {
  let fd: number;
  try {
    // Created here ('wx'), so its mode is this one (narrowed by the umask only): it names the
    // run's process and host, readable by their owner only.
    fd = openSync(path, 'wx', PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    // Whole or not at all: a write cut short is written on, or fails.
    writeFileSync(fd, `${JSON.stringify(holder)}\n`);
  } catch (error) {
    // Not left behind unwritten (a full disk): it would keep other runs out until it is stale.
    closeSync(fd);
    removeIfThere(path);
    throw error;
  }
  closeSync(fd);
  return true;
}

/**
 * Takes the lock of each output a run (or a recording) writes: `<output>.lock` next to its result
 * JSON and next to its recording, so two runs writing one file (the same account, recording,
 * result and kill-switch files; or two configs sharing a recording path, the second of which
 * would move the first one's recording aside while it is written) cannot run at once (Keel's
 * choice of what a run owns). Each file is created exclusively and holds the process's identity
 * (pid, start time, boot, pid namespace, host: see `ProcessIdentity`); while held, its
 * modification time is refreshed every {@link HEARTBEAT_MS}. A lock whose run is gone is
 * taken over (see `judgeHolder`): its pid runs no process, or one started since; it names this
 * process's pid but this process did not take it (a restarted container); or it was taken in
 * another pid namespace or on another host and its heartbeat is {@link LOCK_STALE_AFTER_MS} old.
 * A lock file that holds no whole identity (its run has created it and not written it yet) is
 * held until it is {@link LOCK_STALE_AFTER_MS} old, then taken over (with no run to name).
 * They are removed when the lock is released or the process exits; none is kept when one cannot
 * be taken. A lock a takeover moved aside and never removed (its run was killed) is settled by
 * the next run of the same output, by the same rule.
 * @param outputs - the files the run writes
 * @param startedAt - when this run started, epoch ms (written into the locks)
 * @param environment - probe, clock and heartbeat timer (injected in tests)
 * @returns the lock, or the problem naming the run that holds one of its files (and the parts
 *   of it, for a caller that words it otherwise)
 */
export function acquireRunLock(
  outputs: readonly string[],
  startedAt: number,
  environment: Partial<LockEnvironment> = {},
): RunLockResult {
  const env: LockEnvironment = { ...systemEnvironment, ...environment };
  const mine: LockHolder = {
    ...processIdentity(env.probe),
    startedAt: new Date(startedAt).toISOString(),
    token: randomBytes(16).toString('hex'),
  };
  const paths: string[] = [];
  const tookOver: StaleLock[] = [];
  let stopHeartbeat = () => {};
  let released = false;
  // Once per acquisition: a second release must not forget (held) a path taken again since.
  const releaseAll = () => {
    if (released) return;
    released = true;
    stopHeartbeat();
    for (const path of paths) {
      held.delete(path);
      removeIfMine(path, mine);
    }
  };
  for (const output of new Set(outputs)) {
    const path = resolve(`${output}.lock`);
    let taken: ReturnType<typeof lockFile>;
    try {
      taken = lockFile(path, mine, env);
    } catch (error) {
      releaseAll();
      throw error;
    }
    if (taken?.live === true) {
      releaseAll();
      const { holder, why, elsewhere } = taken;
      const where = elsewhere
        ? `, ${why}: it is taken over once its heartbeat is ${LOCK_STALE_AFTER_MS / 1000} s old`
        : '';
      const heldBy =
        holder === undefined
          ? `another Keel run (${why}: it is taken over once it is ${LOCK_STALE_AFTER_MS / 1000} s old)`
          : `another Keel run (pid ${holder.pid}, started ${holder.startedAt}${where})`;
      return {
        ok: false,
        problem: `${heldBy} is writing ${output}: stop it first, or give this run another name, report.json or recording path (lock ${path})`,
        heldBy,
        lock: path,
      };
    }
    paths.push(path);
    held.add(path);
    if (taken?.live === false && taken.holder !== undefined)
      tookOver.push({ path, pid: taken.holder.pid, why: taken.why });
  }
  stopHeartbeat = env.every(HEARTBEAT_MS, () => {
    for (const path of paths) touchIfMine(path, mine, env.now());
  });
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

/** The holder of a lock file this process could not create, and what was found of it. */
interface Found {
  /** None: the file holds no whole holder (its run has just created it and not written it yet). */
  readonly holder: LockHolder | undefined;
  readonly live: boolean;
  readonly why: string;
  readonly elsewhere: boolean;
}

/**
 * Creates one lock file, taking over a stale one.
 * @returns the live holder when another run holds it; the dead holder taken over; else undefined
 */
function lockFile(path: string, mine: LockHolder, env: LockEnvironment): Found | undefined {
  makePrivateDirSync(dirname(path));
  let tookOverFrom: Found | undefined;
  // Leftovers of killed takeovers are settled before every attempt: removing a dead lock can free
  // the path for a live run's lock left aside, which must go back before this run creates its own.
  for (let attempt = 1; ; attempt++) {
    settleAsides(path, env);
    if (created(path, mine)) return tookOverFrom;
    const judged = opened(path);
    try {
      const text = judged?.text;
      const age = judged === undefined ? undefined : env.now() - judged.mtimeMs;
      const holder = text === undefined ? undefined : holderIn(text);
      if (holder !== undefined) {
        const verdict = judgeHolder(holder, {
          probe: env.probe,
          heartbeatAgeMs: age,
          staleAfterMs: LOCK_STALE_AFTER_MS,
          takenHere: held.has(path),
        });
        if (verdict.live) return { holder, ...verdict };
        tookOverFrom = { holder, ...verdict };
      } else {
        // Created and not written yet (the two steps of `created`), or a run died between them: held
        // until it is as old as a stale heartbeat, as a lock whose holder cannot be probed.
        if (text !== undefined && age !== undefined && age < LOCK_STALE_AFTER_MS)
          return {
            holder: undefined,
            live: true,
            why: 'whose lock file is not written yet',
            elsewhere: false,
          };
        tookOverFrom = undefined;
      }
      // A lock left by a run that is gone (or a lock file it never finished writing): taken over.
      if (attempt > 4) throw new Error(`cannot replace the stale lock ${path}`);
      if (judged !== undefined && !removedIfUnchanged(path, judged)) tookOverFrom = undefined;
    } finally {
      if (judged !== undefined) closeSync(judged.fd);
    }
  }
}

/**
 * A lock file as it was judged: open while it is judged and taken over, so no file created at its
 * path meanwhile can get its inode number (a file system reuses a removed file's number at once).
 */
interface Judged {
  /** Held open until the takeover is decided. */
  readonly fd: number;
  readonly dev: number;
  readonly ino: number;
  /** Its last heartbeat, epoch ms. */
  readonly mtimeMs: number;
  readonly text: string;
}

/** Opens a lock file to judge it; undefined when it is gone. */
function opened(path: string): Judged | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const { dev, ino, mtimeMs } = fstatSync(fd);
    return { fd, dev, ino, mtimeMs, text: readFileSync(fd, 'utf8') };
  } catch {
    closeSync(fd);
    return undefined;
  }
}

/**
 * Removes a lock file judged stale only if it is still the file judged, holding what was judged: it
 * is first moved to a name of its own (atomic, so of two runs taking one stale lock over only one
 * gets it), and put back when it is another file (a run that took the lock over meanwhile created
 * its own, maybe not written yet: every empty lock reads alike) or was written since. Removing it by
 * its path instead would delete the new lock of a run that took it over between the judging and
 * the removal.
 * @param path - the lock file
 * @param judged - the file judged stale, still open
 * @returns whether the judged file was removed (false: gone or taken over since)
 */
function removedIfUnchanged(path: string, judged: Judged): boolean {
  const aside = `${path}.${randomBytes(6).toString('hex')}.stale`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  const moved = statOf(aside);
  const text = textOf(aside);
  // Gone: a run settling leftovers (settleAsides) removed it or put it back meanwhile.
  if (moved === undefined || text === undefined) return false;
  if (moved.dev === judged.dev && moved.ino === judged.ino && text === judged.text) {
    removeIfThere(aside);
    return true;
  }
  putBack(aside, path);
  return false;
}

/** The device and inode of a file; undefined when it is gone. */
function statOf(path: string): { readonly dev: number; readonly ino: number } | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Puts a live run's lock file moved aside back in place, unless a third run has created one there
 * since; nothing when it is gone (a run settling leftovers removed it or put it back meanwhile).
 */
function putBack(aside: string, path: string): void {
  try {
    linkSync(aside, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    if (code !== 'EEXIST') {
      try {
        renameSync(aside, path);
      } catch (renaming) {
        if ((renaming as NodeJS.ErrnoException).code !== 'ENOENT') throw renaming;
      }
      return;
    }
  }
  removeIfThere(aside);
}

function removeIfThere(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** The name a takeover moves a lock file aside under, after the lock's own: see {@link removedIfUnchanged}. */
const ASIDE_SUFFIX = /^\.[0-9a-f]{12}\.stale$/;

/**
 * Settles the files a takeover moved a lock aside to and never removed or put back (its run was
 * killed between the rename and the next step), judged as a lock is, their modification time
 * the holder's last heartbeat: one whose holder is gone is removed; one whose holder may still
 * run is put back when the lock is free, so this run finds it held (else it is left aside). One
 * that never held a whole holder is removed once it is {@link LOCK_STALE_AFTER_MS} old.
 * @param path - the lock file
 * @param env - probe and clock
 */
function settleAsides(path: string, env: LockEnvironment): void {
  const name = basename(path);
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const other of names) {
    if (!other.startsWith(name) || !ASIDE_SUFFIX.test(other.slice(name.length))) continue;
    const aside = join(dirname(path), other);
    const text = textOf(aside);
    if (text === undefined) continue;
    const holder = holderIn(text);
    const age = heartbeatAgeOf(aside, env.now());
    if (holder === undefined) {
      if (age !== undefined && age >= LOCK_STALE_AFTER_MS) removeIfThere(aside);
      continue;
    }
    const verdict = judgeHolder(holder, {
      probe: env.probe,
      heartbeatAgeMs: age,
      staleAfterMs: LOCK_STALE_AFTER_MS,
      takenHere: held.has(path),
    });
    if (!verdict.live) removeIfThere(aside);
    else restoreIfFree(aside, path);
  }
}

/** Puts a live run's lock file moved aside back in place when the lock is free; else leaves it aside. */
function restoreIfFree(aside: string, path: string): void {
  try {
    linkSync(aside, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOENT') return;
    // No hard links here: a rename, when the lock is still free.
    if (textOf(path) !== undefined) return;
    try {
      renameSync(aside, path);
    } catch (renaming) {
      if ((renaming as NodeJS.ErrnoException).code !== 'ENOENT') throw renaming;
    }
    return;
  }
  removeIfThere(aside);
}

function isMine(path: string, mine: LockHolder): boolean {
  const holder = holderOf(path);
  return holder !== undefined && sameProcess(holder, mine) && holder.token === mine.token;
}

function touchIfMine(path: string, mine: LockHolder, now: number): void {
  if (!isMine(path, mine)) return;
  try {
    utimesSync(path, now / 1000, now / 1000);
  } catch {
    // Gone or read-only since: the next beat tries again.
  }
}

function removeIfMine(path: string, mine: LockHolder): void {
  if (!isMine(path, mine)) return;
  try {
    unlinkSync(path);
  } catch {
    // Already gone: nothing to release.
  }
}
