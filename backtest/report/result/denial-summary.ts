import type { BacktestResult } from './backtest-result.ts';

/** Checks named in the summary at most; the rest are counted together (Keel's choice). */
const NAMED_CHECKS = 4;

/**
 * How many intents were denied, by source and check, for a run's closing summary.
 * @param result - the result
 * @returns e.g. `11 intents denied (risk submitRate 11)`, or undefined when none was (or the
 *   result predates denial records)
 */
export function denialSummary(result: BacktestResult): string | undefined {
  const denials = result.denials;
  if (denials === undefined || denials.length === 0) return undefined;
  const byCheck = new Map<string, number>();
  for (const d of denials) {
    const key = `${d.source} ${d.check}`;
    byCheck.set(key, (byCheck.get(key) ?? 0) + 1);
  }
  const counted = [...byCheck].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const named = counted.slice(0, NAMED_CHECKS).map(([check, n]) => `${check} ${n}`);
  const others = counted.slice(NAMED_CHECKS).reduce((sum, [, n]) => sum + n, 0);
  const total = denials.length;
  return `${total} ${total === 1 ? 'intent' : 'intents'} denied (${[...named, ...(others > 0 ? [`other ${others}`] : [])].join(', ')})`;
}

/**
 * The reason of a run's first denial, for the line under {@link denialSummary}: a newcomer's
 * every intent denied `fieldValues` learns why (`side "buy" is not one of BUY, SELL`) without
 * opening the denials CSV.
 * @param result - the result
 * @returns the reason, or undefined when nothing was denied
 */
export function firstDenialReason(result: BacktestResult): string | undefined {
  for (const denial of result.denials ?? []) return denial.reason;
  return undefined;
}
