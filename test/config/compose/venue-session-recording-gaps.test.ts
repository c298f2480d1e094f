import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { readRecords } from '../../../backtest/recording/index.ts';
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
});
