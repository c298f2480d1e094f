const DAY_MS = 86_400_000;

/**
 * The next bucket width of a bounded equity curve: at least twice as wide, a whole multiple of
 * the current width (so buckets merge whole), and while below a day a divisor of a day (so no
 * bucket straddles a UTC day and daily returns stay exact); a day or more doubles.
 * @param width - the current width, ms (> 0)
 * @returns the next width, ms
 * @example
 * widerBucket(60_000) // 120_000; after 1_920_000 (32 min) comes 5_760_000 (96 min)
 */
export function widerBucket(width: number): number {
  if (width >= DAY_MS || DAY_MS % width !== 0) return width * 2;
  for (let k = 2; width * k <= DAY_MS; k++) if (DAY_MS % (width * k) === 0) return width * k;
  return DAY_MS;
}
