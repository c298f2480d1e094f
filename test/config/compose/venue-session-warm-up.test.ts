import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { klineMessage } from '../../../backtest/csv/index.ts';
import { RecordingWriter } from '../../../backtest/recording/index.ts';
import { liveSessionRigs, SESSION_SYM } from '../../kit/live-session-rig.ts';
import { TEST_HEADER } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const PROBE = resolve('test/config/fixtures/warm-up-probe-plugin.ts');
const MIN = 60_000;
const newRig = liveSessionRigs();
const aTempDir = tempDirsRemovedAfterAll('keel-warm-up-history-');

/** A recording of closed 1m klines of the session's sym opening at the given epoch minutes. */
async function klineRecording(minutes: readonly number[]): Promise<string> {
  const path = join(aTempDir(), 'history.jsonl');
  const writer = await RecordingWriter.open(path, TEST_HEADER);
  for (const minute of minutes) {
    const msg = klineMessage(SESSION_SYM, '1m', {
      openTime: minute * MIN,
      open: '90000',
      high: '90100',
      low: '89900',
      close: '90050',
      volume: '3',
      line: 0,
    });
    writer.append(msg.data.ts, 'market-data', msg);
  }
  writer.close();
  return path;
}

const probe = `  - { id: wu, use: ${JSON.stringify(PROBE)}, params: { sym: ${SESSION_SYM} } }`;
const warmUpOn = (path: string) =>
  `warmUp:\n  bars: 5\n  interval: 1m\n  history: [${JSON.stringify(path)}]\n`;

describe('a live session with a warm-up on a recording', () => {
  it('replays the 5 bars before its start to the strategy, denying its orders, then trades on the live feed', async () => {
    const rig = await newRig();
    const now = Math.floor(Date.now() / MIN);
    // Older than the warm-up, inside it, and not closed before the start (the live feed's).
    const history = await klineRecording(Array.from({ length: 12 }, (_, i) => now - 8 + i));
    const outcome = await rig.run({ strategies: probe, durationSec: 2, extra: warmUpOn(history) });
    const denied = [...(outcome.result.denials ?? [])];
    expect(denied.map((d) => d.check)).toEqual(Array(5).fill('kernel.warmUp'));
    const minutes = denied.map((d) => Number(/^bar(\d+)w$/.exec(d.ref)?.[1]));
    // Five whole bars, one after the other, the last closed by the start (a minute may turn meanwhile).
    expect(minutes.map((m) => m - (minutes[0] as number))).toEqual([0, 1, 2, 3, 4]);
    expect(minutes[4]).toBeGreaterThanOrEqual(now - 1);
    expect(minutes[4]).toBeLessThanOrEqual(now);
    const orders = [...outcome.result.orders].map((o) => `${o.clientOrderId} ${o.orderState}`);
    expect(orders).toEqual(['live FILLED']);
    expect((outcome.result.meta.warnings ?? []).filter((w) => w.startsWith('warm-up'))).toEqual([]);
  }, 30_000);

  it('warns, saying how much it covered, when the history falls short of the period', async () => {
    const rig = await newRig();
    const now = Math.floor(Date.now() / MIN);
    const history = await klineRecording([now - 2, now - 1]);
    const outcome = await rig.run({ strategies: probe, durationSec: 1.5, extra: warmUpOn(history) });
    const warnings = (outcome.result.meta.warnings ?? []).filter((w) => w.startsWith('warm-up'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^warm-up: the history covers only [12] min of the 5 min warm-up from /);
    expect([...outcome.result.orders].map((o) => o.clientOrderId)).toEqual(['live']);
  }, 30_000);

  it('stops before it starts, naming the key, its line and the file, when a history file is not there', async () => {
    const rig = await newRig();
    await expect(
      rig.run({ strategies: probe, durationSec: 1, extra: warmUpOn('/nonexistent/history.jsonl') }),
    ).rejects.toThrow(
      /✖ warmUp\.history\[0\] names no such file: \/nonexistent\/history\.jsonl → at warmUp\.history\[0\] \(.*session-1\.yaml:\d+:\d+\)/,
    );
  }, 30_000);

  it('stops before it starts, at the history entry’s line, when a history file is not a recording', async () => {
    const rig = await newRig();
    const notARecording = join(aTempDir(), 'notes.jsonl');
    writeFileSync(notARecording, 'hello\n');
    await expect(
      rig.run({ strategies: probe, durationSec: 1, extra: warmUpOn(notARecording) }),
    ).rejects.toThrow(
      /✖ warmUp\.history\[0\] names a recording whose header cannot be read: .*notes\.jsonl:1: header is not JSON .* → at warmUp\.history\[0\] \(.*session-1\.yaml:\d+:\d+\)/,
    );
  }, 30_000);
});
