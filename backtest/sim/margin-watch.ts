import { asNumber } from '../../core/model/index.ts';
import { balancesValueN, coinValue } from './coin-valuation.ts';
import { noteVenueWork } from './early-span-work.ts';
import { watchLiqPrices } from './liq-price-watch.ts';
import { liquidateIfBelowMaintenance } from './liquidation.ts';
import { equityOf } from './margin.ts';
import { legMarkOf, openLegsOf } from './open-legs.ts';
import { accountView } from './portfolio-views.ts';
import { publishOpenPositions } from './publish.ts';
import { emit, type SimState } from './sim-state.ts';

/** Equity and maintenance margin estimated on numbers (per market event); NaN equity = nothing at risk. */
export interface RiskEstimate {
  readonly equity: number;
  readonly maintenance: number;
}

/**
 * Cheap per-market-event estimate of equity and maintenance margin on numbers. Anything it
 * suggests (liquidation, a margin-call transition) is confirmed in Decimal before it is acted on.
 * @param state - the venue
 * @returns the estimate; equity NaN when there is no open position and no loan
 */
export function estimateRisk(state: SimState): RiskEstimate {
  const risk = { equity: 0, maintenance: 0 };
  estimateRiskInto(state, risk);
  return risk;
}

/** {@link estimateRisk} written into a record the caller owns (no allocation per market event). */
function estimateRiskInto(state: SimState, out: { equity: number; maintenance: number }): void {
  let equity = 0;
  let mm = 0;
  const legs = openLegsOf(state);
  const open = legs.length > 0;
  for (const leg of legs) {
    const mark = legMarkOf(state, leg);
    if (Number.isNaN(mark)) continue;
    const position = leg.position;
    const size = position.qtyN * position.contractSizeN;
    equity += size * (mark - position.avgN);
    mm += Math.abs(size) * mark * position.mmrN;
  }
  if (!open && state.loans.size === 0) {
    out.equity = Number.NaN;
    out.maintenance = 0;
    return;
  }
  equity += balancesValueN(state);
  if (state.loans.size > 0) {
    const loanMmr = asNumber(state.opts.loans.maintenanceMarginRate);
    for (const loan of state.loans.values()) {
      const value =
        loan.principalN *
        (state.opts.valuationCoins.has(loan.coin) ? 1 : asNumber(coinValue(state, loan.coin)));
      equity -= value;
      mm += value * loanMmr;
    }
  }
  out.equity = equity;
  out.maintenance = mm;
}

/** The record `watchMargin` estimates into, read into locals at once (a nested watch may reuse it). */
const watched = { equity: 0, maintenance: 0 };

/**
 * Whether an estimate may be below maintenance margin, with a small relative margin of error.
 * @param risk - the number estimate
 * @returns true when a Decimal check is warranted
 */
export function mayBeBelowMaintenance(risk: RiskEstimate): boolean {
  return mayBeBelowMaintenanceN(risk.equity, risk.maintenance);
}

/**
 * {@link mayBeBelowMaintenance} on the two figures, for callers that hold them as numbers.
 * @param equity - the estimated equity
 * @param maintenance - the estimated maintenance margin
 * @returns true when a Decimal check is warranted
 */
export function mayBeBelowMaintenanceN(equity: number, maintenance: number): boolean {
  return equity < maintenance * 1.000001 + 1e-9;
}

/**
 * After each market event, after a timer's funding or interest charge (`timers.ts`), and after a
 * fill off the market-event path (a command that filled on arrival, a released TIME order):
 * liquidates when equity falls below maintenance margin, republishes positions whose liqPrice
 * other syms' marks moved (`watchLiqPrices`), and reports the account, after the open positions
 * at their marks now (`publishOpenPositions`), when it enters or leaves MARGIN_CALL (the estimate
 * on numbers decides when to look).
 * @param state - the venue
 */
export function watchMargin(state: SimState): void {
  estimateRiskInto(state, watched);
  const equityN = watched.equity;
  const maintenance = watched.maintenance;
  if (Number.isNaN(equityN)) return;
  if (mayBeBelowMaintenanceN(equityN, maintenance) && liquidateIfBelowMaintenance(state)) {
    state.reportedStatus = 'NORMAL';
    return;
  }
  watchLiqPrices(state, equityN, maintenance);
  const ratio = state.opts.marginCallRatioN;
  const nearCall = equityN <= 0 || Math.abs(maintenance / equityN - ratio) < ratio * 1e-6;
  const estimated = equityN <= 0 || maintenance / equityN >= ratio ? 'MARGIN_CALL' : 'NORMAL';
  if (estimated === state.reportedStatus && !nearCall) return;
  const equity = equityOf(state);
  const account = accountView(state, equity);
  if (account.accountStatus === state.reportedStatus) return;
  if (account.accountStatus === 'MARGIN_CALL')
    noteVenueWork(state, state.now, undefined, 'a margin call', false);
  state.reportedStatus = account.accountStatus;
  publishOpenPositions(state, equity);
  emit(state, { kind: 'account', account });
}
