import { readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { heartbeatAgeOf, processRuns, SPILL_STALE_AFTER_MS } from '../report/index.ts';

/**
 * Removes the partial files of an event cache that a process which no longer runs left behind
 * (killed while it built the cache: `<data>.<pid>-<thread>-<n>.partial`, or
 * `<data>.<pid>-<n>.partial` from before threads were named), so they do not pile up next to the
 * recording. Partials of a running process, this one included, are being written and stay; so do
 * those written to in the last {@link SPILL_STALE_AFTER_MS}, since a pid that runs nothing here may
 * be a process in another container building the cache of a recording both see.
 * Best effort: a file that cannot be listed or removed is left.
 * @param data - the cache's data path (`<recording>.events.bin`)
 * @param now - the wall clock, epoch ms (injected in tests)
 */
export async function removeStaleCachePartials(data: string, now = Date.now()): Promise<void> {
  const prefix = `${basename(data)}.`;
  const names = await readdir(dirname(data)).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.partial')) continue;
    const owner = /^(\d+)(?:-\d+){1,2}\.partial$/.exec(name.slice(prefix.length));
    const pid = owner === null ? Number.NaN : Number(owner[1]);
    if (!Number.isSafeInteger(pid) || pid === process.pid || processRuns(pid)) continue;
    const path = join(dirname(data), name);
    const age = heartbeatAgeOf(path, now);
    if (age === undefined || age < SPILL_STALE_AFTER_MS) continue;
    await rm(path, { force: true }).catch(() => undefined);
  }
}
