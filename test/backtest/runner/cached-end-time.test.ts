import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EventCacheMeta, signEventCacheMeta } from '../../../backtest/runner/event-cache-meta.ts';
import { eventCachePaths, runBacktest } from '../../../backtest/runner/index.ts';
import {
  SYNTHETIC_BTC_PERP,
  SYNTHETIC_MARKETS,
  writeSyntheticSession,
} from '../../../backtest/synthetic/index.ts';
import { wideQuotingRunOptions } from '../../kit/wide-quoting-run-options.ts';

const START = Date.UTC(2024, 0, 1);

describe("a run from a valid event cache takes the recording's end from the cache's meta", () => {
  let dir = '';
  let path = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'keel-cached-end-'));
    path = join(dir, 'btc.jsonl');
    await writeSyntheticSession(path, {
      seed: 4,
      startTime: START,
      durationMs: 2 * 3_600_000,
      markets: SYNTHETIC_MARKETS.filter((m) => m.sym === SYNTHETIC_BTC_PERP.sym).map((m) => ({
        ...m,
        meanEventMs: 2000,
      })),
    });
  }, 60_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Runs with the cache; returns the span the progress was started with and the Sharpe. */
  const run = async (window?: { from?: number; to?: number }) => {
    const spans: (number | undefined)[] = [];
    const result = await runBacktest({
      ...wideQuotingRunOptions(path),
      eventCache: { decoderId: 'cached-end-test-v1' },
      progress: { start: (spanMs) => spans.push(spanMs), update: () => undefined, stop: () => undefined },
      ...(window === undefined ? {} : { window }),
    });
    const sharpe = result.metrics.sharpe;
    result.dispose?.();
    return { span: spans[0], sharpe };
  };

  const metaPath = () => eventCachePaths(path).meta;
  const readMeta = () => JSON.parse(readFileSync(metaPath(), 'utf8')) as EventCacheMeta;
  // An edited meta signed again, as this user's own cache of that content would be.
  const writeMeta = async (meta: EventCacheMeta) =>
    writeFileSync(metaPath(), JSON.stringify(await signEventCacheMeta(meta)));

  it('takes the end a valid cache kept (reading none), and spans it as the run that built the cache', async () => {
    const built = await run();
    const meta = readMeta();
    expect(meta.lastRecvTs).toBeGreaterThan(START);
    expect(built.span).toBeDefined();
    expect(await run()).toEqual(built);

    // The span is the kept end's, not the file's: a kept end 10 minutes later spans 10 minutes more.
    await writeMeta({ ...meta, lastRecvTs: (meta.lastRecvTs as number) + 600_000 });
    expect((await run()).span).toBe((built.span as number) + 600_000);

    // A cache without a kept end (as format 4 wrote before it kept one): the end is read as before.
    const { lastRecvTs: _kept, ...older } = meta;
    await writeMeta(older);
    expect(await run()).toEqual(built);
  }, 120_000);

  it('spans a run ending at `to` as before, the end read (up to `to`) when the cache kept none', async () => {
    const to = START + 3_600_000;
    const cached = await run({ to });
    const { lastRecvTs: _kept, ...older } = readMeta();
    await writeMeta(older);
    const read = await run({ to });
    expect(read).toEqual(cached);
    expect(read.span).toBeLessThanOrEqual(3_600_000);
  }, 120_000);
});
