import { DEFAULT_VALUATION_COINS } from '../../backtest/sim/index.ts';
import type { KernelState } from '../../core/kernel/index.ts';
import type { InstrumentSpec } from '../../core/model/index.ts';

/**
 * What a session found on the venue at start that none of its instruments can value: balances of
 * coins no instrument of the config settles in or trades (e.g. USD beside the USDT of crypto
 * perpetuals). Keel takes the account's equity as the venue reports it, and the venue counts them
 * there at its own valuation (the paper venue counts USDT, USDC and USD one for one), so the
 * session's equity, its fraction-of-equity order sizes, its equity risk limits and its return
 * treat them as capital in the account currency although no instrument of the config gives their
 * price. Said, not refused: on a real venue the whole account is collateral.
 *
 * Not said of the account's cash when it holds none of what the instruments settle in: a USDT,
 * USDC or USD balance (the first held) is then the capital the session trades on, counted one for
 * one with the settle asset, as a paper run of a US equity on the default `paper.startingCash`
 * (100000 USDT) and a backtest with `overrides.settleAsset` count it.
 * @param state - the kernel's state once the first reconciliation is folded
 * @param instruments - the config's instruments
 * @param mode - the session's mode, for the advice: a paper run's account is its
 *   `paper.startingCash`; a live one's is the venue's (`keel venue --balance`, or a real account)
 * @returns one sentence naming the coins and the equity, empty when every coin held is valued
 */
export function unvaluedCoinsAtStartWarnings(
  state: Pick<KernelState, 'assets' | 'account'>,
  instruments: readonly InstrumentSpec[],
  mode: 'live' | 'paper',
): string[] {
  const settles = new Set(instruments.map((spec) => spec.settleAsset));
  const valued = new Set(settles);
  // A crypto instrument's base coin is valued at its price (a spot's, else a perpetual's mark).
  for (const spec of instruments) if (spec.id.kind === 'crypto') valued.add(spec.id.base);
  const held = [...state.assets.values()].filter(
    (asset) => !(asset.balance.isZero() && asset.equity.isZero()),
  );
  const cash = held.some((asset) => settles.has(asset.coin))
    ? undefined
    : held.find((asset) => DEFAULT_VALUATION_COINS.includes(asset.coin))?.coin;
  const unvalued = held
    .filter((asset) => !valued.has(asset.coin) && asset.coin !== cash)
    .map((asset) => `${asset.equity.toFixed()} ${asset.coin}`);
  if (unvalued.length === 0) return [];
  const currencies = [...settles].join(', ');
  const equity = state.account === undefined ? '' : ` (${state.account.equity.toFixed()})`;
  return [
    `the venue's account holds ${unvalued.join(', ')}, which no instrument of the config settles in or trades: the equity the venue reports${equity} counts it at the venue's own valuation (a Keel paper venue counts USDT, USDC and USD one for one), and so does the session, in ${currencies}: its fraction-of-equity order sizes, equity risk limits and return treat it as capital; ${adviceFor(mode, currencies)}`,
  ];
}

function adviceFor(mode: 'live' | 'paper', currencies: string): string {
  if (mode === 'paper')
    return `for a comparison with a backtest, give paper.startingCash in ${currencies} instead`;
  return `on a real venue that is so (the whole account is collateral); against keel venue, for a comparison with a backtest, start one whose --balance leaves it out (on a new --data-dir: a data dir keeps its balances)`;
}
