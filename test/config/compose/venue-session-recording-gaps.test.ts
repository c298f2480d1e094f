import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { readRecords } from '../../../backtest/recording/index.ts';
import { DOWN_AT_STOP_REASON } from '../../../config/compose/session-recorder.ts';
import { startFreezableTcpProxy } from '../../kit/freezable-tcp-proxy.ts';
import { liveSessionRigs, SESSION_SYM } from '../../kit/live-session-rig.ts';

const newRig = liveSessionRigs();
const DATE_GRAIN_MS = 1_000;

describe("a live session's recording", () => {
  it('writes a gap record when the market-data connection drops and comes back', async () => {
    const rig = await newRig();
    const dir = rig.newDir();
    const path = join(dir, 'session.jsonl');
    const run = rig.run({
      strategies: `  - { id: mm, use: market-maker, params: { sym: ${SESSION_SYM}, qty: 0.001, halfSpreadTicks: 50, maxPosition: 0.01 } }`,
      durationSec: 3,
      dir,
      extra: `recording: { path: ${JSON.stringify(path)} }\n`,
    });
    await sleep(1_000);
    // The recording is stamped on the session's clock: the venue's (its Date header, to the second).
    const dropAt = rig.venue.serverNow() - DATE_GRAIN_MS;
    rig.venue.faults.dropConnections('market-data');
    await run;
    const gaps = [];
    for await (const record of readRecords(path)) {
      const gap = (record.msg as { keelGap?: { sym: string; fromTs: number; ts: number } }).keelGap;
      if (gap !== undefined) gaps.push(gap);
    }
    expect(gaps).toHaveLength(1);
    expect(gaps[0]?.sym).toBe(SESSION_SYM);
    expect(gaps[0]?.ts).toBeGreaterThan(dropAt);
  }, 30_000);

  // The client writes gaps on its reconnect only, and the session dropped them while stopping: a
  // stream still down at the stop left its recording without a gap, its result without a warning.
  it('writes a gap record, and warns, when the market stream is still down at the stop', async () => {
    const rig = await newRig();
    const dir = rig.newDir();
    const path = join(dir, 'session.jsonl');
    const proxy = await startFreezableTcpProxy(Number(new URL(rig.venue.marketDataWsUrl).port));
    const run = rig.run({
      strategies: `  - { id: mm, use: market-maker, params: { sym: ${SESSION_SYM}, qty: 0.001, halfSpreadTicks: 50, maxPosition: 0.01 } }`,
      durationSec: 3,
      dir,
      marketDataViaPort: proxy.port,
      extra: `recording: { path: ${JSON.stringify(path)} }\n`,
    });
    await sleep(1_000);
    // Every connection cut, and none taken any more: the stream stays down until the stop.
    await proxy.close();
    const outcome = await run;
    const gaps = [];
    for await (const record of readRecords(path)) {
      const gap = (record.msg as { keelGap?: { sym: string; reason: string } }).keelGap;
      if (gap !== undefined) gaps.push(gap);
    }
    expect(gaps).toEqual([expect.objectContaining({ sym: SESSION_SYM, reason: DOWN_AT_STOP_REASON })]);
    expect(outcome.result.meta.warnings).toContainEqual(
      expect.stringMatching(/^market data down from .* until the stop at /),
    );
  }, 30_000);
});
