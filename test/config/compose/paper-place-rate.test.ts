import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { paperAndBacktestResults } from '../../kit/paper-and-backtest-runs.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2025, 2, 3);
const PLUGIN = resolve('test/config/fixtures/many-places-plugin.ts');
const tempDir = tempDirsRemovedAfterEach('keel-paper-place-rate-');

const STRATEGY = `instruments: [${BTC}]
strategies:
  - id: many
    use: ${PLUGIN}
    params: { sym: ${BTC}, perBar: 40 }
`;

describe('a paper replay faster than the wall clock', () => {
  it("places every order the backtest places: the venue's place limit (1200 per 60 s) counts replay time", async () => {
    // 31 one-minute bars, 40 places a bar: 40 a minute of the replay, 1240 within a few wall seconds.
    const dir = tempDir();
    const bars = await barsRecordingIn(
      dir,
      Array.from({ length: 31 }, () => [100, 101, 99, 100]),
      T0,
      BTC,
    );
    type Result = { orders: { createAt: number; orderState: string }[]; denials: unknown[] };
    const { paper, backtest } = await paperAndBacktestResults<Result>(dir, STRATEGY, bars);
    expect(backtest.orders).toHaveLength(1240);
    expect(paper.denials).toEqual(backtest.denials);
    expect(paper.orders.map((o) => o.createAt)).toEqual(backtest.orders.map((o) => o.createAt));
  }, 120_000);
});
