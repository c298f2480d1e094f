import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type BacktestRunOptions,
  type ProgressReporter,
  runBacktest,
} from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { barOpensSeenBy } from '../../kit/bar-opens-seen.ts';
import { flatBarsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;
const aTempDir = tempDirsRemovedAfterAll('keel-runner-window-');

describe('backtest runner: the replay window on bars', () => {
  let bars = '';
  beforeAll(async () => {
    // Six 1m bars opening at T0 + 0 .. 5 min, each received when it closes a minute later.
    bars = await flatBarsRecordingIn(aTempDir(), 6, T0, BTC);
  });

  const run = async (
    window: BacktestRunOptions['window'],
    progress?: ProgressReporter,
  ): Promise<number[]> => {
    const seen: number[] = [];
    const result = await runBacktest({
      ...barRunOptions(
        bars,
        [anInstrument(BTC)],
        [{ id: 's', strategy: barOpensSeenBy(seen, BTC, T0), params: {} }],
      ),
      window,
      ...(progress === undefined ? {} : { progress }),
    });
    result.dispose?.();
    return seen;
  };

  it('takes the bars that opened in [from, to): from is the first open, the bar opening at to is out', async () => {
    // By receive (close) time, [2, 4) would be the bars opening at 1 and 2.
    expect(await run({ from: T0 + 2 * MIN, to: T0 + 4 * MIN })).toEqual([2, 3]);
    expect(await run({ from: T0 + 5 * MIN })).toEqual([5]);
    expect(await run({ to: T0 + MIN })).toEqual([0]);
  });

  it("reports progress on what it replays: the window's events and event time, no jump at the end", async () => {
    const starts: (number | undefined)[] = [];
    const updates: [number, number][] = [];
    const progress: ProgressReporter = {
      start: (spanMs) => starts.push(spanMs),
      update: (events, doneMs) => updates.push([events, doneMs]),
      stop: () => undefined,
    };
    expect(await run({ from: T0 + 2 * MIN, to: T0 + 4 * MIN }, progress)).toEqual([2, 3]);
    // Two bars replayed, received at T0 + 3 and 4 min: 1 min of event time from the first to
    // the window's end, all of it done. The old count was the recording's 6 lines, reached at once.
    expect(starts).toEqual([MIN]);
    expect(updates.at(-1)).toEqual([2, MIN]);
    expect(Math.max(...updates.map(([events]) => events))).toBe(2);
  });

  it('says a sym whose data lies wholly outside the window had data there, not none', async () => {
    const ETH = 'BINANCE_PERP_ETH_USDT';
    const eth = await flatBarsRecordingIn(aTempDir(), 3, T0 + 24 * 60 * MIN, ETH);
    const idle = defineStrategy({ name: 'idle', params: z.object({ sym: z.string() }).strict() });
    const result = await runBacktest({
      ...barRunOptions(
        bars,
        [anInstrument(BTC), anInstrument(ETH)],
        [{ id: 'e', strategy: idle, params: { sym: ETH } }],
      ),
      recordings: [bars, eth],
      window: { to: T0 + 6 * MIN },
    });
    result.dispose?.();
    expect(result.meta.warnings).toContain(
      `strategy e names ${ETH} in its params, but the recordings held data for that sym only outside the window (to 2024-01-01T00:06:00.000Z): from 2024-01-02T00:00:00.000Z to 2024-01-02T00:02:00.000Z`,
    );
  });
});
