import { beforeAll, describe, expect, it } from 'vitest';
import { EmptyReplayWindowError, emptyReplayWindow, runBacktest } from '../../../backtest/runner/index.ts';
import { flatBarsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2024, 0, 1);
const MINUTE = 60_000;
const aTempDir = tempDirsRemovedAfterAll('keel-replay-window-check-');

describe('the replay window check asked before a run', () => {
  let bars = '';
  beforeAll(async () => {
    bars = await flatBarsRecordingIn(aTempDir(), 4, T0, BTC);
  });
  const run = (window?: { from?: number; to?: number }) => ({
    ...barRunOptions(bars, [anInstrument(BTC)], []),
    ...(window === undefined ? {} : { window }),
  });

  it('finds what the run throws for a window that misses the recordings, before or after them', async () => {
    for (const window of [{ from: T0 + 60 * MINUTE }, { to: T0 - MINUTE }]) {
      const found = await emptyReplayWindow(run(window));
      expect(found).toBeInstanceOf(EmptyReplayWindowError);
      await expect(runBacktest(run(window))).rejects.toThrow(found?.message);
    }
  });

  it('finds nothing for a window holding an event, or no window', async () => {
    expect(await emptyReplayWindow(run({ from: T0 + MINUTE, to: T0 + 2 * MINUTE }))).toBeUndefined();
    expect(await emptyReplayWindow(run())).toBeUndefined();
  });
});
