import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { eventCachePaths } from '../../../backtest/runner/event-cache.ts';
import { validEventCacheMeta } from '../../../backtest/runner/event-cache-meta.ts';
import { readEventCache } from '../../../backtest/runner/event-cache-rows.ts';

const dir = mkdtempSync(join(tmpdir(), 'keel-cache-threads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('event cache built by two threads of one process at once (sweep workers)', () => {
  it('leaves a cache of the right events when the second build is stopped halfway', async () => {
    const recording = join(dir, 'rec.jsonl');
    writeFileSync(recording, 'the cache keys on size, times and hash only\n');
    const batches = 10;
    const perBatch = 1000;
    const start = (pauseAfter: number) =>
      new Worker(new URL('../../kit/event-cache-build-worker.mjs', import.meta.url), {
        workerData: { batches, perBatch, pauseAfter, recording },
      });
    const next = (worker: Worker) => new Promise<string>((resolve) => worker.once('message', resolve));
    const first = start(6);
    expect(await next(first)).toBe('paused');
    const second = start(0);
    expect(await next(second)).toBe('paused');
    first.postMessage('go');
    expect(await next(first)).toBe('done');
    await first.terminate();
    // The second is stopped before it ends (Ctrl-C, or a pool destroyed after a failed combination).
    await second.terminate();
    const paths = eventCachePaths(recording);
    const meta = await validEventCacheMeta(recording, paths, 'dec');
    expect(meta).toBeDefined();
    const recvTs: number[] = [];
    if (meta !== undefined)
      for await (const batch of readEventCache(recording, paths.data, meta))
        for (const e of batch) recvTs.push(e.recvTs);
    expect(recvTs).toEqual(Array.from({ length: batches * perBatch }, (_, n) => 1000 + n));
  }, 60_000);
});
