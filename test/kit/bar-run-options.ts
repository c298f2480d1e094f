import type { BacktestRunOptions } from '../../backtest/runner/index.ts';
import type { StrategySlot } from '../../core/kernel/index.ts';
import { D, type InstrumentSpec } from '../../core/model/index.ts';
import { RiskGate } from '../../core/risk/index.ts';
import { decodeMarketRecord } from './bar-recordings.ts';

/**
 * Runner options of the runner suites' backtest over one bar recording: every market-data record
 * decoded, the real risk gate with default limits, 10 000 USDT, positions left open at the end.
 * @param recording - the recording's path
 * @param instruments - the instruments the strategies trade
 * @param strategies - the strategies to run
 * @returns the options, to spread and override
 */
export function barRunOptions(
  recording: string,
  instruments: readonly InstrumentSpec[],
  strategies: readonly StrategySlot[],
): BacktestRunOptions {
  return {
    recordings: [recording],
    decode: decodeMarketRecord,
    instruments,
    strategies,
    gate: new RiskGate(),
    startingCash: D(10_000),
    closeAtEnd: false,
  };
}
