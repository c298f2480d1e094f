import type { RecordedMessage } from '../../backtest/recording/index.ts';
import type { BacktestRunOptions } from '../../backtest/runner/index.ts';
import { SYNTHETIC_BTC_PERP } from '../../backtest/synthetic/index.ts';
import { D, type MarketEvent } from '../../core/model/index.ts';
import { RiskGate } from '../../core/risk/index.ts';
import { marketMaker } from '../../strategies/market-maker.ts';

/**
 * Runner options of the runner suites' usual backtest: the market maker quoting 0.01 BTC two
 * ticks off the mid (at most 0.05 held) on one recording of the synthetic BTC perpetual, 10 000
 * USDT, seed 3.
 * @param recording - the recording's path
 * @param decode - the suite's record decoder
 * @param overrides - anything to change (batch size, fill model, close at end...)
 * @returns the options
 */
export function quotingBacktestOptions(
  recording: string,
  decode: (record: RecordedMessage) => MarketEvent | null | Error,
  overrides: Partial<BacktestRunOptions> = {},
): BacktestRunOptions {
  return {
    recordings: [recording],
    decode,
    instruments: [SYNTHETIC_BTC_PERP],
    strategies: [
      {
        id: 'mm',
        strategy: marketMaker,
        params: { sym: SYNTHETIC_BTC_PERP.sym, qty: 0.01, halfSpreadTicks: 2, maxPosition: 0.05 },
      },
    ],
    gate: new RiskGate(),
    startingCash: D(10_000),
    seed: 3,
    ...overrides,
  };
}
