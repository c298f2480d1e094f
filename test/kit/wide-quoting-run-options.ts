import type { BacktestRunOptions } from '../../backtest/runner/index.ts';
import { SYNTHETIC_BTC_PERP } from '../../backtest/synthetic/index.ts';
import { decodeSessionRecord } from '../../config/session-decoder.ts';
import { D } from '../../core/model/index.ts';
import { RiskGate } from '../../core/risk/index.ts';
import { marketMaker } from '../../strategies/market-maker.ts';

/**
 * A backtest of a SYNTHETIC BTC perpetual session with the market maker quoting wide (300 ticks
 * from the mid, requoting on 100, 0.01 a quote, at most 0.05 held) on the queue fill model from
 * 100,000 USDT: a run that trades now and then, for tests of what the runner makes of a recording.
 * @param path - the session recording
 * @returns the run options, to spread and add to
 */
export function wideQuotingRunOptions(path: string): BacktestRunOptions {
  return {
    recordings: [path],
    decode: decodeSessionRecord,
    instruments: [SYNTHETIC_BTC_PERP],
    strategies: [
      {
        id: 'mm',
        strategy: marketMaker,
        params: {
          sym: SYNTHETIC_BTC_PERP.sym,
          qty: 0.01,
          halfSpreadTicks: 300,
          requoteTicks: 100,
          maxPosition: 0.05,
        },
      },
    ],
    gate: new RiskGate(),
    startingCash: D(100_000),
    fillModel: 'queue',
  };
}
