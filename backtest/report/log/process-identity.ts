import { readFileSync, readlinkSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { processRuns } from './process-runs.ts';

/**
 * Who holds a file a process leaves behind when killed (a run lock, a spill directory): its pid,
 * and what tells it apart from a later process that got the same pid (a restarted container) or
 * from a process with that pid in another pid namespace or on another machine sharing the volume.
 * The fields after `pid` are absent where there is no /proc (macOS) or in files written by an
 * older Keel.
 */
export interface ProcessIdentity {
  readonly pid: number;
  /** When the process started, in clock ticks since boot: field 22 of `/proc/<pid>/stat`. */
  readonly startTicks?: string;
  /** The kernel's boot (`/proc/sys/kernel/random/boot_id`): containers of one host share it. */
  readonly bootId?: string;
  /** The pid namespace (`readlink /proc/self/ns/pid`, e.g. `pid:[4026531836]`): each container has its own. */
  readonly pidNamespace?: string;
  /** The host name (a container's own, by default its id). */
  readonly host?: string;
}

/** What a judgement reads of the machine: /proc and the process table (injected in tests). */
export interface ProcessProbe {
  /** This process's pid. */
  readonly pid: number;
  /**
   * @param path - a /proc file
   * @returns its text, or undefined where it does not exist or cannot be read
   */
  readFile(path: string): string | undefined;
  /**
   * @param path - a /proc symlink
   * @returns its target, or undefined where it does not exist
   */
  readLink(path: string): string | undefined;
  /** @returns the host name */
  hostname(): string;
  /**
   * @param pid - a pid of this process's pid namespace
   * @returns whether a process has it (signal 0)
   */
  runs(pid: number): boolean;
}

/**
 * How often a process refreshes the modification time of the files it holds (its run locks, the
 * owner files of its spill directories): its heartbeat, which processes elsewhere judge it by.
 */
export const HEARTBEAT_MS = 5_000;

/**
 * How long ago a held file's heartbeat last beat (its modification time).
 * @param path - the file
 * @param now - the wall clock, epoch ms
 * @returns ms; undefined when the file cannot be read
 */
export function heartbeatAgeOf(path: string, now: number): number | undefined {
  return orUndefined(() => now - statSync(path).mtimeMs);
}

function orUndefined<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/** The machine this process runs on. */
export const hostProbe: ProcessProbe = {
  get pid() {
    return process.pid;
  },
  readFile: (path) => orUndefined(() => readFileSync(path, 'utf8')),
  readLink: (path) => orUndefined(() => readlinkSync(path)),
  hostname,
  runs: processRuns,
};

/**
 * Field 22 (starttime) of a `/proc/<pid>/stat` line. Field 2, the command name, is in parentheses
 * and may hold spaces and parentheses itself: the fields are counted after its last `)`.
 */
function startTicksOf(stat: string | undefined): string | undefined {
  if (stat === undefined) return undefined;
  const fields = stat
    .slice(stat.lastIndexOf(')') + 1)
    .trim()
    .split(/\s+/);
  const ticks = fields[22 - 3];
  return ticks !== undefined && /^\d+$/.test(ticks) ? ticks : undefined;
}

/**
 * This process's identity, as written into the files it holds.
 * @param probe - the machine (injected in tests)
 * @returns pid and host, with start time, boot and pid namespace where /proc exists
 */
export function processIdentity(probe: ProcessProbe = hostProbe): ProcessIdentity {
  const startTicks = startTicksOf(probe.readFile('/proc/self/stat'));
  const bootId = probe.readFile('/proc/sys/kernel/random/boot_id')?.trim();
  const pidNamespace = probe.readLink('/proc/self/ns/pid');
  return {
    pid: probe.pid,
    ...(startTicks === undefined ? {} : { startTicks }),
    ...(bootId === undefined || bootId === '' ? {} : { bootId }),
    ...(pidNamespace === undefined ? {} : { pidNamespace }),
    host: probe.hostname(),
  };
}

/**
 * Reads an identity from parsed JSON (a lock file, a spill directory's owner file).
 * @param value - the parsed JSON
 * @returns the identity, or undefined when it names no pid
 */
export function identityFrom(value: unknown): ProcessIdentity | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const fields = value as Record<string, unknown>;
  if (typeof fields.pid !== 'number' || !Number.isSafeInteger(fields.pid)) return undefined;
  const text = (key: string) => (typeof fields[key] === 'string' ? { [key]: fields[key] as string } : {});
  return {
    pid: fields.pid,
    ...text('startTicks'),
    ...text('bootId'),
    ...text('pidNamespace'),
    ...text('host'),
  };
}

/**
 * Whether two identities name one process: same pid, and the same start, boot, pid namespace and
 * host where both have them.
 * @param a - one identity
 * @param b - the other
 * @returns true when nothing tells them apart
 */
export function sameProcess(a: ProcessIdentity, b: ProcessIdentity): boolean {
  const differ = (x: string | undefined, y: string | undefined) =>
    x !== undefined && y !== undefined && x !== y;
  return (
    a.pid === b.pid &&
    !differ(a.startTicks, b.startTicks) &&
    !differ(a.bootId, b.bootId) &&
    !differ(a.pidNamespace, b.pidNamespace) &&
    !differ(a.host, b.host)
  );
}

/** How {@link judgeHolder} judges a holder. */
export interface HolderJudging {
  /** The machine (injected in tests). */
  readonly probe?: ProcessProbe;
  /** How long ago the holder last refreshed its file (its heartbeat); undefined = unknown. */
  readonly heartbeatAgeMs?: number;
  /** A holder elsewhere whose heartbeat is this old or older is taken for dead. */
  readonly staleAfterMs: number;
  /**
   * For a holder naming this process's pid in this pid namespace: whether this process took the
   * file (a run lock); undefined = judge by its start time (a spill directory, which the worker
   * threads of this process make too).
   */
  readonly takenHere?: boolean;
}

/** What {@link judgeHolder} found. */
export interface HolderVerdict {
  /** Whether the holder may still run: its file must be left alone. */
  readonly live: boolean;
  /** Why, in words to end a sentence about the holder, e.g. `no longer runs`. */
  readonly why: string;
  /** Whether the holder ran elsewhere (another pid namespace, boot or host) and was judged by its heartbeat. */
  readonly elsewhere: boolean;
}

/**
 * Judges whether the process that holds a file still runs. A holder in this pid namespace, on
 * this boot and host (or one whose file predates identities, or written where there is no /proc)
 * is probed: it is gone when its pid runs no process, or a process started at another time (its
 * pid was reused); a holder naming this process's pid is this process only if it took the file
 * (or, for a spill directory, has this process's start time) — else an earlier process with the
 * same pid left it (a restarted container). A holder elsewhere (another container's pid
 * namespace, another boot or host) cannot be probed: it runs while its heartbeat is younger than
 * `staleAfterMs`.
 * @param holder - the identity in the file
 * @param judging - probe, heartbeat age, staleness bound and whether this process took the file
 * @returns whether it may run, and why
 */
export function judgeHolder(holder: ProcessIdentity, judging: HolderJudging): HolderVerdict {
  const probe = judging.probe ?? hostProbe;
  const me = processIdentity(probe);
  const elsewhere =
    holder.host !== undefined &&
    (holder.host !== me.host || holder.bootId !== me.bootId || holder.pidNamespace !== me.pidNamespace);
  if (elsewhere) {
    const age = judging.heartbeatAgeMs;
    const where = `on host ${holder.host} in another pid namespace (container) or boot`;
    if (age !== undefined && age < judging.staleAfterMs)
      return { live: true, why: `runs ${where}: its heartbeat is ${seconds(age)} old`, elsewhere };
    return {
      live: false,
      why: `ran ${where} and its heartbeat stopped${age === undefined ? '' : ` ${seconds(age)} ago`} (at least ${seconds(judging.staleAfterMs)} ago means gone)`,
      elsewhere,
    };
  }
  // /proc/<pid> tells about this namespace's pids only when /proc is mounted for it.
  const procIsOurs = probe.readLink('/proc/self') === String(probe.pid);
  if (holder.pid === probe.pid) {
    const mine =
      judging.takenHere ??
      (holder.startTicks === undefined || me.startTicks === undefined || holder.startTicks === me.startTicks);
    return mine
      ? { live: true, why: 'is this process', elsewhere }
      : {
          live: false,
          why: "named this process's pid but was left by an earlier process that had it (a restarted container)",
          elsewhere,
        };
  }
  if (!probe.runs(holder.pid)) return { live: false, why: 'no longer runs', elsewhere };
  const ticks = procIsOurs ? startTicksOf(probe.readFile(`/proc/${holder.pid}/stat`)) : undefined;
  if (holder.startTicks !== undefined && ticks !== undefined && ticks !== holder.startTicks)
    return { live: false, why: 'no longer runs (its pid belongs to a process started since)', elsewhere };
  return { live: true, why: 'runs', elsewhere };
}

function seconds(ms: number): string {
  return `${Math.max(0, Math.round(ms / 1000))} s`;
}
