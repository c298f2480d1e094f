/**
 * Formats an integer count of grid units as a fixed-point decimal string: `formatScaled(950123, 1)`
 * is "95012.3". Integer arithmetic only, so prices and sizes land exactly on the tick and lot grid
 * and print the same on every machine.
 * @param units - a safe integer number of 10^-decimals units
 * @param decimals - digits after the point (0 prints an integer)
 * @returns the decimal string, with exactly `decimals` fraction digits
 */
export function formatScaled(units: number, decimals: number): string {
  if (decimals === 0) return String(units);
  const negative = units < 0;
  const digits = String(negative ? -units : units).padStart(decimals + 1, '0');
  const cut = digits.length - decimals;
  return `${negative ? '-' : ''}${digits.slice(0, cut)}.${digits.slice(cut)}`;
}
