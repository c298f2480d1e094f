import type { Asset, Dec } from '../../core/model/index.ts';
import { ONE } from '../../core/model/index.ts';
import { DEFAULT_VALUATION_COINS } from '../sim/index.ts';

/**
 * The value of one unit of a coin in the account currency, as the paper venue's sims (run with
 * the default valuation coins) count it: 1 for a valuation coin (USDT, USDC, USD), else what the
 * sim's asset view of a borrowed coin states (loan value / loan). The sim does not state the
 * value of another coin (it marks it at a `{coin}/{valuation coin}` sym's price), so it is
 * unknown here.
 * @param assets - the portfolio's assets (the sim's snapshot)
 * @param coin - the coin
 * @returns its value, undefined when unknown
 */
export function coinValueOf(assets: readonly Asset[], coin: string): Dec | undefined {
  if (DEFAULT_VALUATION_COINS.includes(coin)) return ONE;
  const asset = assets.find((a) => a.coin === coin);
  if (asset?.loan === undefined || asset.loanValue === undefined || asset.loan.isZero()) return undefined;
  return asset.loanValue.div(asset.loan);
}
