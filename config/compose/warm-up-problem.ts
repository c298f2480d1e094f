import type { WarmUpTookEverythingError } from '../../backtest/runner/index.ts';
import type { ConfigProblem, LoadedConfig } from '../loader/index.ts';

/**
 * A backtest warm-up that takes every event of the recordings, as a config problem located at
 * `warmUp.bars` or `warmUp.period` (whichever the config gives): its YAML line, or the `--set` that
 * gave it, as an empty replay window is located at `backtest.from`/`backtest.to`.
 * @param loaded - the config whose warm-up it is
 * @param error - what the backtest threw
 * @returns the problem
 */
export function warmUpTookEverythingProblem(
  loaded: LoadedConfig,
  error: WarmUpTookEverythingError,
): ConfigProblem {
  const key = loaded.config.warmUp?.bars === undefined ? 'period' : 'bars';
  return loaded.source.problem(
    ['warmUp', key],
    `makes a warm-up that takes all ${error.events} events of the recordings (it runs to ${new Date(error.until).toISOString()}), leaving nothing to trade on: shorten it or replay more data`,
  );
}
