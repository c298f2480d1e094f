import type { Dec } from '../../core/model/index.ts';
import type { JsonValue } from '../report/index.ts';
import { type StartingCoinValue, startingEquityOf } from './starting-coins.ts';

export type { StartingCoinValue } from './starting-coins.ts';

/**
 * The run-config fields of the coins a run started holding: each coin's quantity, the instrument
 * and price valuing it, and the starting equity (cash plus coins) the return is measured from.
 * Nothing when the run started with cash alone, so such results keep their shape.
 * @param cash - starting cash in the account currency
 * @param coins - the starting coins' values
 * @returns fields to spread into the result's `runConfig`
 */
export function startingCoinsConfig(
  cash: Dec,
  coins: readonly StartingCoinValue[],
): { [key: string]: JsonValue } {
  if (coins.length === 0) return {};
  return {
    startingCoins: Object.fromEntries(
      coins.map((c) => [c.coin, { qty: c.qty.toFixed(), valuedBy: c.sym, price: c.price.toFixed() }]),
    ),
    startingEquity: startingEquityOf(cash, coins).toFixed(),
  };
}

/**
 * The assumption stating how starting coins were valued and what the return is measured from.
 * @param cash - starting cash in the account currency
 * @param coins - the starting coins' values
 * @param settleAsset - the account currency
 * @returns one sentence, or none without starting coins
 */
export function startingCoinsNotes(
  cash: Dec,
  coins: readonly StartingCoinValue[],
  settleAsset: string,
): string[] {
  if (coins.length === 0) return [];
  const parts = coins.map(
    (c) => `${c.qty.toFixed()} ${c.coin} at ${c.price.toFixed()} (the first price of ${c.sym} in the data)`,
  );
  return [
    `The run starts holding ${parts.join(', ')} besides ${cash.toFixed()} ${settleAsset}: the starting equity, ${startingEquityOf(cash, coins).toFixed()} ${settleAsset}, counts them at those prices, and the return, CAGR and drawdowns are measured from it; afterwards the coins count in equity at their instrument's mark. Selling them shows in the trade list as a short round trip of the instrument (the holding counts only the run's own trades), which the end-of-run close buys back when enabled.`,
  ];
}
