import { describe, expect, it } from 'vitest';
import { DEFAULT_BATCH_SIZE, openReplaySources } from '../../../backtest/runner/replay-sources.ts';
import type { MarketEvent } from '../../../core/model/index.ts';
import { decodeMarketRecord } from '../../kit/bar-recordings.ts';
import { quotingBacktestOptions } from '../../kit/quoting-backtest-options.ts';
import { syntheticSessionFile } from '../../kit/synthetic-session-files.ts';

describe('replay sources', () => {
  const session = syntheticSessionFile({ seed: 3, minutes: 10 });

  it('give batches of at most about a thousand events by default, so the events made ahead of the replay stay few', async () => {
    const sources = await openReplaySources(quotingBacktestOptions(session.path, decodeMarketRecord));
    const batches: (readonly MarketEvent[])[] = [sources.firstBatch];
    for (let batch = await sources.readAhead(); batch !== undefined; batch = await sources.readAhead())
      batches.push(batch);
    expect(batches.flat().length).toBeGreaterThan(2 * 1024);
    expect(Math.max(...batches.map((b) => b.length))).toBe(1024);
    expect(DEFAULT_BATCH_SIZE).toBe(1024);
  });
});
