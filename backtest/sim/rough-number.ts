import type { Dec } from '../../core/model/index.ts';
import { asNumber } from '../../core/model/index.ts';

/**
 * A Decimal as a double to within a hundred-trillionth of it, for screens with a far wider margin
 * (the account's margin-call screen allows a millionth): read off its first three base-1e7 words,
 * where the exact double (`asNumber`) of one with more words prints and parses it, and an
 * equity carrying fees has more words than a double holds.
 * @param value - a Decimal
 * @returns the double, exact when it has three words or fewer; NaN for NaN and infinities
 */
export function roughNumberOf(value: Dec): number {
  const { d, e, s } = value;
  if (d === null) return Number.NaN;
  if (d.length <= 3) return asNumber(value);
  // The words left out count less than one unit of the third, and the first is at least 1: the
  // part dropped is below 1e-14 of the value.
  const mantissa = ((d[0] as number) * 1e7 + (d[1] as number)) * 1e7 + (d[2] as number);
  return s * mantissa * 10 ** (Math.floor(e / 7) * 7 - 14);
}
