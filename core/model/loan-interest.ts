import type { Dec } from './decimal.ts';
import { D } from './decimal.ts';

/** Hours in the interest year (Keel's choice: 365 days). */
const HOURS_PER_YEAR = 8760;

/**
 * Decimal places of an interest charge, rounded up (Keel's choice: the venue's precision is not
 * shown; 8 is the usual precision of a coin's balance): the charges, the loan's interest and the
 * cash flows then add up exactly, as a statement's lines do.
 */
const INTEREST_DECIMALS = 8;

/**
 * One hour's interest on some principal of a loan, as Keel's simulated and paper venues charge it:
 * principal x annualRate / 8760, rounded up to 8 decimal places.
 * @param principal - the principal charged
 * @param annualRate - the loan's annual rate (0.08 for 8 %)
 * @returns the hour's charge
 */
export function hourlyLoanInterest(principal: Dec, annualRate: Dec): Dec {
  return principal.mul(annualRate).div(HOURS_PER_YEAR).toDecimalPlaces(INTEREST_DECIMALS, D.ROUND_UP);
}
