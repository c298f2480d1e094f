import type { Dec } from '../../core/model/index.ts';

/**
 * An amount times a contract size, left as it is when the size is 1 (most instruments): the
 * product would be the same value, as no amount here has more digits than the precision.
 * @param amount - an amount in contracts
 * @param size - the contract size
 * @returns amount x size
 */
export function timesSize(amount: Dec, size: Dec): Dec {
  return isOne(size) ? amount : amount.mul(size);
}

/** Whether a Decimal is exactly 1, read off decimal.js's digits (one base-1e7 word, exponent 0). */
function isOne(value: Dec): boolean {
  return value.s === 1 && value.e === 0 && value.d?.length === 1 && value.d[0] === 1;
}
