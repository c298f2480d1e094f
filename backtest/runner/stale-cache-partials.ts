import { createHash } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import {
  heartbeatAgeOf,
  hostProbe,
  type ProcessProbe,
  processIdentity,
  processRuns,
  SPILL_STALE_AFTER_MS,
} from '../report/index.ts';

/**
 * A short tag of the machine and pid namespace a process runs in (its host name, boot and pid
 * namespace, hashed): a partial file carrying this process's tag was written by a process whose
 * pid can be probed from here.
 * @param probe - the machine (injected in tests)
 * @returns 8 hex digits
 */
export function cacheHostTag(probe: ProcessProbe = hostProbe): string {
  const me = processIdentity(probe);
  const where = [me.host ?? '', me.bootId ?? '', me.pidNamespace ?? ''].join('\n');
  return createHash('sha256').update(where).digest('hex').slice(0, 8);
}

/**
 * The path a process writes an event cache's data under until it is complete:
 * `<data>.<pid>-<thread>-<n>.<host tag>.partial`, so a later run can tell its writer and where it ran.
 * @param data - the cache's data path (`<recording>.events.bin`)
 * @param thread - the writing thread's id
 * @param n - the count of cache files this thread started writing
 * @returns the partial path
 */
export function cachePartialPath(data: string, thread: number, n: number): string {
  return `${data}.${process.pid}-${thread}-${n}.${cacheHostTag()}.partial`;
}

/** `<pid>-<thread>-<n>[.<host tag>].partial`; `<pid>-<n>.partial` from before threads were named. */
const PARTIAL_NAME = /^(\d+)(?:-\d+){1,2}(?:\.([0-9a-f]{8}))?\.partial$/;

/**
 * Removes the partial files of an event cache that a process which no longer runs left behind
 * (killed while it built the cache), so they do not pile up next to the recording. Partials of a
 * running process, this one included, are being written and stay. One written on this machine in
 * this pid namespace (its name carries {@link cacheHostTag}'s tag) goes at once when its pid runs
 * nothing. One written elsewhere, or by an older Keel whose names carry no tag, goes only when its
 * pid runs nothing here and it was not written to in the last {@link SPILL_STALE_AFTER_MS}, since
 * that pid may be a process in another container building the cache of a recording both see.
 * Best effort: a file that cannot be listed or removed is left.
 * @param data - the cache's data path (`<recording>.events.bin`)
 * @param now - the wall clock, epoch ms (injected in tests)
 */
export async function removeStaleCachePartials(data: string, now = Date.now()): Promise<void> {
  const prefix = `${basename(data)}.`;
  const names = await readdir(dirname(data)).catch(() => [] as string[]);
  const here = cacheHostTag();
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const owner = PARTIAL_NAME.exec(name.slice(prefix.length));
    if (owner === null) continue;
    const pid = Number(owner[1]);
    const probed = owner[2] === here;
    if (!Number.isSafeInteger(pid) || pid === process.pid || processRuns(pid)) continue;
    const path = join(dirname(data), name);
    if (!probed) {
      const age = heartbeatAgeOf(path, now);
      if (age === undefined || age < SPILL_STALE_AFTER_MS) continue;
    }
    await rm(path, { force: true }).catch(() => undefined);
  }
}
