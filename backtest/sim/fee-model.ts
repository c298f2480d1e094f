import { D, type Dec, type ExecType, type FeeSchedule, isOnStep, ZERO } from '../../core/model/index.ts';

/** Fee markups (instrument and sub-portfolio) accept a precision of 0.01 bps (spec "Limits"). */
export const MARKUP_STEP: Dec = D('0.000001');

/** The fee of one fill, paid in the instrument's quote (settle) asset. */
export interface FillFee {
  /** What the account pays (>= 0). */
  readonly fee: Dec;
  /** What the account receives back when the effective rate is negative (>= 0). */
  readonly rebate: Dec;
}

/**
 * Checks a fee markup against the venue's precision of 0.01 bps.
 * @param markup - markup as a rate (0.000001 = 0.01 bps)
 * @param where - where the value came from, for the error
 * @throws RangeError when the markup is not a multiple of 0.01 bps
 */
export function checkMarkup(markup: Dec, where: string): void {
  if (!isOnStep(markup, MARKUP_STEP)) {
    throw new RangeError(
      `${where} markup ${markup.toFixed()} is finer than the venue's precision of 0.01 bps`,
    );
  }
}

/**
 * Checks a sub-portfolio markup (the portfolio's own, as the broker endpoint sets it): not
 * negative, on the venue's precision of 0.01 bps.
 * @param markup - markup as a rate (0.000001 = 0.01 bps)
 * @param where - where the value came from, for the error
 * @throws RangeError when the markup is negative or finer than 0.01 bps
 */
export function checkSubPortfolioMarkup(markup: Dec, where: string): void {
  if (markup.lt(0)) throw new RangeError(`${where}: markup ${markup.toFixed()} must not be negative`);
  checkMarkup(markup, where);
}

/**
 * Computes the fee of one fill: (maker or taker rate + the instrument's markup + the portfolio's
 * sub-portfolio markup) x notional, plus the fixed commission per fill, plus on an order's first
 * fill the fixed commission per order (equities). A negative total is paid back as a rebate. The
 * two markups are different things, each charged once: the instrument's belongs to its fee
 * schedule (every portfolio pays it), the sub-portfolio markup to the portfolio trading.
 * @param schedule - the instrument's fee schedule, its own markup included
 * @param execType - MAKER for a resting order, TAKER for one that took liquidity
 * @param notional - quantity x price x contract size, in the quote asset
 * @param extraMarkup - the sub-portfolio markup of the simulated portfolio, added to both rates
 * @param firstOfOrder - this is the order's first fill (it pays the per-order commission)
 * @returns fee and rebate, both >= 0
 */
export function fillFee(
  schedule: FeeSchedule,
  execType: ExecType,
  notional: Dec,
  extraMarkup: Dec,
  firstOfOrder: boolean,
): FillFee {
  let total = notional.mul(rateOf(schedule, execType, extraMarkup));
  // Adding a zero commission to a non-zero amount gives the amount itself.
  if (total.isZero() || !schedule.fixedPerFill.isZero()) total = total.plus(schedule.fixedPerFill);
  if (firstOfOrder && schedule.fixedPerOrder !== undefined) total = total.plus(schedule.fixedPerOrder);
  return total.isNegative() ? { fee: ZERO, rebate: total.neg() } : { fee: total, rebate: ZERO };
}

/** A summed rate and the (immutable) sub-portfolio markup it includes. */
interface SummedRate {
  readonly extraMarkup: Dec;
  readonly rate: Dec;
}

// Schedules are immutable: the sum is computed again only when the sub-portfolio markup changes.
const ratesBySchedule = new WeakMap<FeeSchedule, { MAKER?: SummedRate; TAKER?: SummedRate }>();

/** The maker or taker rate plus the instrument's markup plus the sub-portfolio markup. */
function rateOf(schedule: FeeSchedule, execType: ExecType, extraMarkup: Dec): Dec {
  let rates = ratesBySchedule.get(schedule);
  if (rates === undefined) {
    rates = {};
    ratesBySchedule.set(schedule, rates);
  }
  const summed = rates[execType];
  if (summed?.extraMarkup === extraMarkup) return summed.rate;
  const rate = (execType === 'MAKER' ? schedule.maker : schedule.taker)
    .plus(schedule.markup)
    .plus(extraMarkup);
  rates[execType] = { extraMarkup, rate };
  return rate;
}
