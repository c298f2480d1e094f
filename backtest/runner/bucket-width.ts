const DAY_MS = 86_400_000;

/**
 * The next bucket width of a bounded equity curve: at least twice as wide, a whole multiple of
 * the current width (so buckets merge whole), and a divisor of a day (so no bucket straddles a
 * UTC day and daily returns stay exact). Buckets stop widening at a day: a wider bucket would keep
 * only some of its days' closes, and daily returns would span several days.
 * @param width - the current width, ms (> 0)
 * @returns the next width, ms; undefined once `width` is a day or more. A width that does not
 *   divide a day (a custom sample step such as 7 s) has no such multiple: it doubles up to a day
 *   or more, and its buckets straddle UTC days (daily returns are then not exact)
 * @example
 * widerBucket(60_000) // 120_000; after 1_920_000 (32 min) comes 5_760_000 (96 min)
 * widerBucket(86_400_000) // undefined
 */
export function widerBucket(width: number): number | undefined {
  if (width >= DAY_MS) return undefined;
  if (DAY_MS % width !== 0) return width * 2;
  for (let k = 2; width * k <= DAY_MS; k++) if (DAY_MS % (width * k) === 0) return width * k;
  return DAY_MS;
}
