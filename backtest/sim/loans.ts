import type { BorrowIntent, Dec, Loan, LoanRisk, RepayIntent } from '../../core/model/index.ts';
import { asNumber, D, hourlyLoanInterest, ZERO } from '../../core/model/index.ts';
import { coinValue, isCoinValued } from './coin-valuation.ts';
import { rejectCommand } from './command-rejection.ts';
import { noteVenueWork } from './early-span-work.ts';
import { availableMargin } from './initial-margin.ts';
import { takeInterestFromHolding } from './interest-holding.ts';
import { republishMovedLiqPrices } from './liq-price-watch.ts';
import { loanHeadroom } from './loan-limits.ts';
import { equityOf } from './margin.ts';
import { accountView } from './portfolio-views.ts';
import { publishBalances } from './publish.ts';
import { DEFAULT_MIN_BORROW, LOAN_AMOUNT_DECIMALS } from './sim-options.ts';
import { credit, emit, type SimLoan, type SimState } from './sim-state.ts';

const HOUR_MS = 3_600_000;

function keyOf(exchange: string, coin: string): string {
  return `${exchange}:${coin}`;
}

/**
 * @param loan - a loan the venue holds
 * @returns its public view
 */
export function loanView(loan: SimLoan): Loan {
  return {
    exchange: loan.exchange,
    coin: loan.coin,
    principal: loan.principal,
    interest: loan.interest,
    annualRate: loan.annualRate,
    updateAt: loan.updateAt,
  };
}

function publishLoan(state: SimState, loan: SimLoan): void {
  loan.updateAt = state.now;
  emit(state, { kind: 'loan', loan: loanView(loan) });
}

/** One hour's interest on some principal of a loan (`hourlyLoanInterest`). */
function hourlyInterest(loan: SimLoan, principal: Dec): Dec {
  return hourlyLoanInterest(principal, loan.annualRate);
}

/**
 * Charges a loan's interest for one hour on some principal: principal x annualRate / 8760, rounded
 * up to 8 places, deducted from the coin's balance (a DEDUCT_INTEREST cash
 * flow stamped with the time the hour was charged for) and from the spot holding that trades the
 * coin (`interest-holding.ts`).
 * @returns true when the charge was not zero
 */
function chargeInterest(state: SimState, loan: SimLoan, principal: Dec, ts: number): boolean {
  const charge = hourlyInterest(loan, principal);
  if (charge.isZero()) return false;
  loan.interest = loan.interest.plus(charge);
  credit(state, loan.coin, charge.neg());
  takeInterestFromHolding(state, loan, charge);
  state.ledger.interest = state.ledger.interest.plus(charge);
  state.cashFlows.push({
    type: 'DEDUCT_INTEREST',
    coin: loan.coin,
    amount: charge.neg(),
    exchange: loan.exchange,
    ts,
  });
  return true;
}

/**
 * Charges the interest of every whole hour ending by `until` since each loan's last accrual (hours
 * counted from its first borrow), one charge per hour, each rounded and stamped with its hour's
 * end, on the principal outstanding then; positions whose liqPrice the charges moved are
 * republished. What is repaid before an hour ends pays that hour when it is repaid
 * ({@link repay}). The venue's timers (`timers.ts`) charge one hour at a time and check the margin
 * after each, so a charge that takes equity below maintenance is liquidated before the next hour
 * is charged.
 * @param state - the venue
 * @param until - charge the hours ending at or before this time (default: now)
 * @returns true when interest was charged (equity moved)
 */
export function accrueInterest(state: SimState, until: number = state.now): boolean {
  let charged = false;
  for (const loan of state.loans.values()) {
    let chargedLoan = false;
    while (loan.accruedUntil + HOUR_MS <= until) {
      loan.accruedUntil += HOUR_MS;
      if (!chargeInterest(state, loan, loan.principal, loan.accruedUntil)) continue;
      noteVenueWork(state, loan.accruedUntil, undefined, `the interest of the ${loan.coin} loan`, false);
      chargedLoan = true;
    }
    if (!chargedLoan) continue;
    charged = true;
    publishLoan(state, loan);
    publishBalances(state, [loan.coin]);
  }
  if (charged) republishMovedLiqPrices(state, equityOf(state));
  return charged;
}

/**
 * Charges principal leaving a loan (repaid) for the hour under way, when part of that hour has
 * passed: any hour started is charged whole (Keel's choice, as margin venues bill hourly), and the
 * hour's end will not find this principal to charge it.
 * @param state - the venue
 * @param loan - the loan, its whole hours accrued up to now
 * @param amount - the principal leaving it
 */
function chargeStartedHour(state: SimState, loan: SimLoan, amount: Dec): void {
  if (state.now > loan.accruedUntil) chargeInterest(state, loan, amount, state.now);
}

/**
 * The interest each open loan owes for the hour under way, not charged yet: the hour is charged
 * when it ends, or when the principal is repaid (see {@link chargeStartedHour}).
 * @param state - the venue
 * @returns per loan with an hour started, its coin and the charge that hour will make
 */
export function startedHourInterest(state: SimState): { readonly coin: string; readonly amount: Dec }[] {
  const owed: { coin: string; amount: Dec }[] = [];
  for (const loan of state.loans.values()) {
    if (!(state.now > loan.accruedUntil) || loan.principal.isZero()) continue;
    const amount = hourlyInterest(loan, loan.principal);
    if (!amount.isZero()) owed.push({ coin: loan.coin, amount });
  }
  return owed;
}

/**
 * When the next hourly accrual is due.
 * @param state - the venue
 * @returns epoch ms, Infinity without loans
 */
export function nextAccrual(state: SimState): number {
  let next = Number.POSITIVE_INFINITY;
  for (const loan of state.loans.values()) next = Math.min(next, loan.accruedUntil + HOUR_MS);
  return next;
}

function totalLoanValue(state: SimState): Dec {
  let total = ZERO;
  for (const loan of state.loans.values())
    total = total.plus(loan.principal.mul(coinValue(state, loan.coin)));
  return total;
}

/**
 * Refuses an amount no loan can take (406015, "not positive or below the minimum"): not positive,
 * or finer than {@link LOAN_AMOUNT_DECIMALS} decimal places. Checked before the asset, as an
 * amount that is not positive is wrong whatever the asset.
 * @param state - the venue
 * @param intent - the borrow or repay command
 * @returns true when the command was refused
 */
function refusedLoanAmount(state: SimState, intent: BorrowIntent | RepayIntent): boolean {
  const amount = intent.amount;
  if (amount.gt(0) && amount.decimalPlaces() <= LOAN_AMOUNT_DECIMALS) return false;
  const why = amount.gt(0)
    ? `${amount.toFixed()} is finer than ${LOAN_AMOUNT_DECIMALS} decimal places (Keel's assumption of the venue's loan precision)`
    : `${amount.toFixed()} is not positive`;
  rejectCommand(state, intent.ref, intent.kind, 'LOAN_AMOUNT_INVALID', why);
  return true;
}

/**
 * The check borrow and repay share after the amount's and the asset's: no liquidation in
 * progress (406021).
 * @param state - the venue
 * @param intent - the borrow or repay command
 * @returns true when the command was refused
 */
function refusedLoanChange(state: SimState, intent: BorrowIntent | RepayIntent): boolean {
  if (state.liquidating) {
    rejectCommand(state, intent.ref, intent.kind, 'LOAN_FROZEN_IN_LIQUIDATION', 'liquidation in progress');
    return true;
  }
  return false;
}

/**
 * Borrows an asset into the portfolio. Checks, in order (codes are Keel's meanings of the spec's
 * 406014–406023): a positive amount of at most 8 decimal places (406015), borrowable asset
 * (406014), at least the asset's minimum borrow (406015), not in liquidation (406021),
 * account NORMAL and LTV below the warning level (406020),
 * per-user quota (406017), loan pool (406018), both counted over the venue's loans
 * (`venueLoans`: every portfolio's) as `loan-limits.ts` does, a price for the coin (406019: without one the
 * loan's value and the LTV after it are unknown), margin for the loan's maintenance on top of the
 * loans already taken (406016), LTV after borrowing (406019).
 * @param state - the venue
 * @param intent - the command
 */
export function borrow(state: SimState, intent: BorrowIntent): void {
  const terms = state.opts.loans.assets[keyOf(intent.exchange, intent.coin)];
  const fail = (name: Parameters<typeof rejectCommand>[3], detail: string) =>
    rejectCommand(state, intent.ref, intent.kind, name, detail);
  if (refusedLoanAmount(state, intent)) return;
  const key = keyOf(intent.exchange, intent.coin);
  if (!terms) {
    // The sim serves backtests, paper runs and `keel venue`: it knows only the terms it was given,
    // and its caller says where the user gives them.
    fail(
      'LOAN_ASSET_NOT_BORROWABLE',
      `this simulated venue has no loan terms for ${key}; ${state.opts.loans.missingTermsAdvice(key)}`,
    );
    return;
  }
  const minimum = terms.minBorrow ?? DEFAULT_MIN_BORROW;
  if (intent.amount.lt(minimum)) {
    fail(
      'LOAN_AMOUNT_INVALID',
      `${intent.amount.toFixed()}: the minimum borrow of ${key} is ${minimum.toFixed()}`,
    );
    return;
  }
  if (refusedLoanChange(state, intent)) return;
  const status = accountView(state).accountStatus;
  const ltv = loanRiskOf(state).ltv;
  const level = state.opts.loans.ltvWarningLevel;
  if (status !== 'NORMAL' || ltv.gte(level)) {
    fail(
      'LOAN_LTV_WARNING',
      status !== 'NORMAL'
        ? `account ${status}, not NORMAL`
        : `LTV ${ltv.toFixed(4)} is at or above the warning level ${level.toFixed()} (ltvWarningLevel)`,
    );
    return;
  }
  accrueInterest(state);
  const venueLoans = state.opts.venueLoans?.() ?? state.loans.values();
  const left = loanHeadroom(terms, venueLoans, intent.exchange, intent.coin);
  if (intent.amount.gt(left.quota)) {
    fail(
      'LOAN_QUOTA_EXCEEDED',
      `quota ${terms.userQuota.toFixed()} ${intent.coin}, ${D.max(left.quota, 0).toFixed()} left`,
    );
    return;
  }
  if (intent.amount.gt(left.pool)) {
    fail(
      'LOAN_POOL_EXCEEDED',
      `pool ${terms.pool.toFixed()} ${intent.coin}, ${D.max(left.pool, 0).toFixed()} left`,
    );
    return;
  }
  const existing = state.loans.get(key);
  if (!isCoinValued(state, intent.coin)) {
    // Valued at 0, the loan would pass the margin and LTV checks whatever its size.
    fail(
      'LOAN_LTV_EXCEEDED',
      `${intent.coin} has no price yet, so the loan's value and the LTV after it are unknown; borrow it once a ${intent.coin}/${[...state.opts.valuationCoins].join(' or ')} instrument has a price`,
    );
    return;
  }
  const value = coinValue(state, intent.coin);
  const addedValue = intent.amount.mul(value);
  const rate = state.opts.loans.maintenanceMarginRate;
  const addedMM = addedValue.mul(rate);
  const heldMM = totalLoanValue(state).mul(rate);
  const free = availableMargin(state).minus(heldMM);
  if (addedMM.gt(free)) {
    fail(
      'LOAN_INSUFFICIENT_MARGIN',
      `needs ${addedMM.toFixed(2)} of margin; available margin less the ${heldMM.toFixed(2)} the loans already taken need is ${free.toFixed(2)}`,
    );
    return;
  }
  const loans = totalLoanValue(state).plus(addedValue);
  const equity = equityOf(state);
  const gross = equity.plus(loans);
  const limit = state.opts.loans.maxBorrowLtv;
  if (!gross.gt(0) || loans.div(gross).gt(limit)) {
    const left = gross.gt(0) ? loans.div(gross).toFixed(4) : 'unbounded (no equity backs it)';
    fail(
      'LOAN_LTV_EXCEEDED',
      `the borrow would leave LTV ${left} (loan value ${loans.toFixed(2)} / (equity ${equity.toFixed(2)} + loan value ${loans.toFixed(2)})), above the limit ${limit.toFixed()} (maxBorrowLtv)`,
    );
    return;
  }
  const loan = existing ?? {
    exchange: intent.exchange,
    coin: intent.coin,
    principal: ZERO,
    principalN: 0,
    interest: ZERO,
    annualRate: terms.annualRate,
    accruedUntil: state.now,
    updateAt: state.now,
  };
  loan.principal = loan.principal.plus(intent.amount);
  loan.principalN = asNumber(loan.principal);
  state.loans.set(key, loan);
  credit(state, intent.coin, intent.amount);
  state.cashFlows.push({
    type: 'BORROW',
    coin: intent.coin,
    amount: intent.amount,
    exchange: intent.exchange,
    ts: state.now,
  });
  state.deadline = Math.min(state.deadline, loan.accruedUntil + HOUR_MS);
  publishLoan(state, loan);
  const equityAfter = equityOf(state);
  republishMovedLiqPrices(state, equityAfter);
  publishBalances(state, [intent.coin], equityAfter);
}

/**
 * Repays loan principal (interest is settled separately, hourly; what is repaid pays the hour under
 * way, see {@link chargeStartedHour}, taken from the balance as the hourly charges are, below zero
 * if need be). Checks: positive amount of at most 8 decimal places (406015), not in liquidation (406021), amount <= principal,
 * with no loan counting as principal 0 (406022), enough balance for the amount (406023). The sim
 * liquidates synchronously within one market event, so 406021 is never seen by a command there;
 * the live venue can answer it.
 * @param state - the venue
 * @param intent - the command
 */
export function repay(state: SimState, intent: RepayIntent): void {
  const fail = (name: Parameters<typeof rejectCommand>[3], detail: string) =>
    rejectCommand(state, intent.ref, intent.kind, name, detail);
  if (refusedLoanAmount(state, intent) || refusedLoanChange(state, intent)) return;
  const key = keyOf(intent.exchange, intent.coin);
  const loan = state.loans.get(key);
  if (!loan) {
    fail('LOAN_REPAY_EXCEEDS_PRINCIPAL', `no outstanding ${intent.coin} loan on ${intent.exchange}`);
    return;
  }
  accrueInterest(state);
  if (intent.amount.gt(loan.principal)) {
    fail('LOAN_REPAY_EXCEEDS_PRINCIPAL', `principal is ${loan.principal.toFixed()}`);
    return;
  }
  if ((state.balances.get(intent.coin) ?? ZERO).lt(intent.amount)) {
    fail('LOAN_REPAY_INSUFFICIENT_BALANCE', intent.coin);
    return;
  }
  chargeStartedHour(state, loan, intent.amount);
  loan.principal = loan.principal.minus(intent.amount);
  loan.principalN = asNumber(loan.principal);
  credit(state, intent.coin, intent.amount.neg());
  state.cashFlows.push({
    type: 'REPAY',
    coin: intent.coin,
    amount: intent.amount.neg(),
    exchange: intent.exchange,
    ts: state.now,
  });
  if (loan.principal.isZero()) state.loans.delete(key);
  publishLoan(state, loan);
  const equityAfter = equityOf(state);
  republishMovedLiqPrices(state, equityAfter);
  publishBalances(state, [intent.coin], equityAfter);
}

/**
 * Repays a loan's whole principal from its coin's balance, as the liquidation does once it has
 * raised the coin (`loan-liquidation.ts`): a REPAY cash flow, and the loan published with principal
 * 0 and closed. The balance goes negative when the coin could not be raised in full (no insurance
 * fund). The liquidation publishes the balances and the account afterwards. Unlike a repay it
 * charges no started hour: the liquidation raised the coin for the principal and the interest
 * charged so far (`planRepayment`), and a charge after that would leave the coin owed on no loan.
 * @param state - the venue
 * @param loan - the loan
 */
export function repayInLiquidation(state: SimState, loan: SimLoan): void {
  const amount = loan.principal;
  loan.principal = ZERO;
  loan.principalN = 0;
  credit(state, loan.coin, amount.neg());
  state.cashFlows.push({
    type: 'REPAY',
    coin: loan.coin,
    amount: amount.neg(),
    exchange: loan.exchange,
    ts: state.now,
  });
  state.loans.delete(keyOf(loan.exchange, loan.coin));
  publishLoan(state, loan);
}

/**
 * Loan risk of the portfolio: LTV = loan value / (equity + loan value), the loan value, and the net
 * margin value (equity).
 * @param state - the venue
 * @returns the summary; LTV 0 without loans, 1 when nothing backs the loans
 */
export function loanRiskOf(state: SimState): LoanRisk {
  const loans = totalLoanValue(state);
  const equity = equityOf(state);
  const gross = equity.plus(loans);
  const ltv = loans.isZero() ? ZERO : gross.gt(0) ? loans.div(gross) : D(1);
  return { ltv, totalLoanValue: loans, netMarginValue: equity };
}
