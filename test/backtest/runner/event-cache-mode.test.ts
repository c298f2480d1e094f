import { chmodSync, existsSync } from 'node:fs';
import { utimes } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { RecordingDamage, readEventBatches } from '../../../backtest/recording/index.ts';
import { cachedMarketEvents, eventCachePaths } from '../../../backtest/runner/event-cache.ts';
import type { MarketEvent } from '../../../core/model/index.ts';
import { decodeMarketRecord } from '../../kit/bar-recordings.ts';
import { modeOf, POSIX_MODES } from '../../kit/file-modes.ts';
import { syntheticSessionFile } from '../../kit/synthetic-session-files.ts';

/** Reads a recording through its event cache to the end. */
async function readThroughCache(path: string): Promise<void> {
  const fresh = () => readEventBatches(path, decodeMarketRecord) as AsyncIterable<readonly MarketEvent[]>;
  for await (const _ of cachedMarketEvents(path, 'mode-test', fresh, new RecordingDamage()));
}

describe.skipIf(!POSIX_MODES)('the mode of an event cache', () => {
  const session = syntheticSessionFile({ seed: 9, minutes: 2 });

  // The cache holds a private recording's market events, decoded: it was written with the umask's mode (0644).
  it('is 0600, its data and its meta, built or renewed', async () => {
    const paths = eventCachePaths(session.path);
    await readThroughCache(session.path);
    expect(existsSync(paths.data)).toBe(true);
    expect([modeOf(paths.data), modeOf(paths.meta)]).toEqual(['600', '600']);
    // Touched, the recording's meta is written again with its new times, over a meta left 0644.
    chmodSync(paths.meta, 0o644);
    const later = new Date(Date.UTC(2030, 0, 1));
    await utimes(session.path, later, later);
    await readThroughCache(session.path);
    expect(modeOf(paths.meta)).toBe('600');
  });
});
