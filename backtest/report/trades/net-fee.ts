import type { Dec, Execution } from '../../../core/model/index.ts';
import { D } from '../../../core/model/index.ts';

/**
 * A fill's fee less its rebate, without the subtraction when the rebate is zero (most fills):
 * decimal.js answers x - 0 with a copy of x rounded to the precision, which is x again when x is
 * non-zero and has no more digits than the precision. A zero fee is left to decimal.js, which
 * decides the sign of a zero result.
 * @param fill - the fill (its fee and rebate)
 * @returns fee - rebate
 */
export function netFee(fill: Pick<Execution, 'fee' | 'rebate'>): Dec {
  const { fee, rebate } = fill;
  return rebate.isZero() && !fee.isZero() && fee.sd() <= D.precision ? fee : fee.minus(rebate);
}
