import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheHostTag, removeStaleCachePartials } from '../../../backtest/runner/stale-cache-partials.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const tempDir = tempDirsRemovedAfterEach('keel-stale-partials-');

/** The pid of a process that ran here and has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  if (child.pid === undefined) throw new Error('could not start a process');
  return child.pid;
}

describe('stale event cache partials', () => {
  it('removes at once a partial written on this host whose pid no longer runs, however fresh', async () => {
    const dir = tempDir();
    const data = join(dir, 'rec.jsonl.gz.events.bin');
    const pid = deadPid();
    const here = cacheHostTag();
    const deadHere = `${data}.${pid}-1-1.${here}.partial`;
    const runningHere = `${data}.${process.ppid}-1-1.${here}.partial`;
    // Fresh and not provably dead: an older Keel's name, or a process in another container.
    const untagged = `${data}.${pid}-1-2.partial`;
    const elsewhere = `${data}.${pid}-1-3.${here === '00000000' ? 'ffffffff' : '00000000'}.partial`;
    for (const file of [deadHere, runningHere, untagged, elsewhere]) writeFileSync(file, 'half a cache');
    await removeStaleCachePartials(data);
    const left = (await readdir(dir)).sort();
    expect(left).toEqual([runningHere, untagged, elsewhere].map((file) => file.slice(dir.length + 1)).sort());
  });
});
