import type { VenueSnapshot } from '../../core/execution/index.ts';
import { type Asset, asNumber } from '../../core/model/index.ts';
import { adlRankOf } from './adl-rank.ts';
import { loanView } from './loans.ts';
import { equityOf } from './margin.ts';
import { accountView, assetView, positionView } from './portfolio-views.ts';
import { algoView } from './publish.ts';
import { orderView } from './sim-order.ts';
import type { SimState } from './sim-state.ts';
import { everyPosition } from './spot-holdings.ts';

/** A snapshot of the simulated venue, which always lists its assets. */
export type SimSnapshot = VenueSnapshot & { readonly assets: readonly Asset[] };

/**
 * Everything the venue holds now, as a reconnecting client would fetch it: open orders and algo
 * orders, open positions (spot holdings included), assets, the account and the loans with
 * principal left.
 * @param state - the venue
 * @returns the snapshot at the current virtual time
 */
export function snapshotOf(state: SimState): SimSnapshot {
  const coins = new Set([...state.balances.keys()]);
  const equity = equityOf(state);
  const equityN = asNumber(equity);
  return {
    ts: state.now,
    openOrders: [...state.liveOrders].map((o) => orderView(o, state.opts.portfolioId)),
    openAlgoOrders: [...state.algos.values()].map((a) => algoView(state, a)),
    // The ADL rank moves with every mark: it is computed when read, not kept up to date per event.
    positions: everyPosition(state)
      .filter((p) => !p.qty.isZero())
      .map((p) => positionView(state, p, equity, adlRankOf(state, p, equityN))),
    assets: [...coins].map((coin) => assetView(state, coin)),
    account: accountView(state, equity),
    loans: [...state.loans.values()].filter((loan) => !loan.principal.isZero()).map(loanView),
  };
}
