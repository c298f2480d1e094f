import type { Dec } from '../../core/model/index.ts';
import { ZERO } from '../../core/model/index.ts';
import { coinValue } from './coin-valuation.ts';
import { feeOf, type LoanRepayment, planRepayment, projectionAfter } from './loan-liquidation.ts';
import { equityOf, maintenanceMargin, markOf, settleValue, valued } from './margin.ts';
import type { SimPosition } from './sim-position.ts';
import type { SimLoan, SimState } from './sim-state.ts';

/** What a liquidation takes over: margin positions to close, then loans to repay. */
export interface Victims {
  /** Margin positions, closed first at their marks. */
  readonly positions: readonly SimPosition[];
  /** Loans, repaid after the closes, each with the trades that raise its coin. */
  readonly repayments: readonly LoanRepayment[];
  /** True when every margin position and every loan is taken over (FULL_LIQUIDATION). */
  readonly full: boolean;
}

interface Candidate {
  readonly position?: SimPosition;
  readonly loan?: SimLoan;
  /** Maintenance margin it frees, in the account currency. */
  readonly mm: Dec;
  /** Liquidation fees it costs, in the account currency. */
  readonly fee: Dec;
  /** A loan the balance of its coin repays as it stands: no trade, no fee. */
  readonly free: boolean;
}

function positionCandidate(state: SimState, position: SimPosition): Candidate {
  const spec = state.opts.instruments.get(position.sym);
  const notional = valued(
    position.qty
      .abs()
      .mul(spec?.contractSize ?? 1)
      .mul(markOf(state, position)),
    settleValue(state, position.sym),
  );
  return {
    position,
    mm: notional.mul(state.opts.mmrOf(position.sym)),
    fee: notional.mul(spec?.liquidationFee ?? ZERO),
    free: false,
  };
}

function loanCandidate(state: SimState, loan: SimLoan): Candidate {
  // Each loan's fee is estimated from the balances now; the repayments are planned again, in order.
  const { trades } = planRepayment(state, loan, projectionAfter(state, []));
  let fee = ZERO;
  for (const trade of trades) fee = fee.plus(valued(feeOf(trade), coinValue(state, trade.spec.settleAsset)));
  const mm = valued(loan.principal, coinValue(state, loan.coin)).mul(state.opts.loans.maintenanceMarginRate);
  return { loan, mm, fee, free: trades.length === 0 };
}

/**
 * Chooses what to liquidate: first the loans the balances repay as they stand (no trade, no fee),
 * then margin positions and loans by the maintenance margin they carry, largest first (a position
 * before a loan on a tie), until the rest is covered by the equity left after the liquidation
 * fees (closing at the mark, and repaying from coins bought or sold at the mark, change equity
 * only by the fee). The chosen positions are closed first, then the chosen loans repaid in the
 * order chosen, each planned from the balances the steps before it leave (`loan-liquidation.ts`).
 * @param state - the venue
 * @param positions - the open margin positions
 * @returns what to take over
 */
export function chooseVictims(state: SimState, positions: readonly SimPosition[]): Victims {
  const loans = [...state.loans.values()];
  const ranked = [
    ...positions.map((p) => positionCandidate(state, p)),
    ...loans.map((l) => loanCandidate(state, l)),
  ].sort(
    (a, b) =>
      Number(b.free) - Number(a.free) || b.mm.comparedTo(a.mm) || (a.position ? 0 : 1) - (b.position ? 0 : 1),
  );
  let equity = equityOf(state);
  let mm = maintenanceMargin(state);
  const chosen: Candidate[] = [];
  for (const candidate of ranked) {
    if (equity.gte(mm) && chosen.length > 0) break;
    chosen.push(candidate);
    equity = equity.minus(candidate.fee);
    mm = mm.minus(candidate.mm);
  }
  const closed = chosen.flatMap((c) => (c.position ? [c.position] : []));
  const projection = projectionAfter(state, closed);
  const repayments = chosen.flatMap((c) => (c.loan ? [planRepayment(state, c.loan, projection)] : []));
  return {
    positions: closed,
    repayments,
    full: closed.length === positions.length && repayments.length === loans.length,
  };
}
