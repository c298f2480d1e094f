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
 * @param state - the kernel's state once the first reconciliation is folded
 * @param instruments - the config's instruments
 * @returns one sentence naming the coins and the equity, empty when every coin held is valued
 */
export function unvaluedCoinsAtStartWarnings(
  state: Pick<KernelState, 'assets' | 'account'>,
  instruments: readonly InstrumentSpec[],
): string[] {
  const valued = new Set<string>();
  for (const spec of instruments) {
    valued.add(spec.settleAsset);
    // A crypto instrument's base coin is valued at its price (a spot's, else a perpetual's mark).
    if (spec.id.kind === 'crypto') valued.add(spec.id.base);
  }
  const unvalued = [...state.assets.values()]
    .filter((asset) => !valued.has(asset.coin) && !(asset.balance.isZero() && asset.equity.isZero()))
    .map((asset) => `${asset.equity.toFixed()} ${asset.coin}`);
  if (unvalued.length === 0) return [];
  const settles = [...new Set(instruments.map((spec) => spec.settleAsset))].join(', ');
  const equity = state.account === undefined ? '' : ` (${state.account.equity.toFixed()})`;
  return [
    `the venue's account holds ${unvalued.join(', ')}, which no instrument of the config settles in or trades: the equity the venue reports${equity} counts it at the venue's own valuation (a Keel paper venue counts USDT, USDC and USD one for one), and so does the session, in ${settles}: its fraction-of-equity order sizes, equity risk limits and return treat it as capital; start the venue without it (keel venue --balance) for a comparison with a backtest`,
  ];
}
