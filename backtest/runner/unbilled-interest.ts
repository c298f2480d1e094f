import type { Dec } from '../../core/model/index.ts';

/**
 * The warning for loans still open when a backtest ends: the hour under way is charged when it
 * ends, after the data, so the run's interest leaves it out, while a run repaying before the end
 * pays it (every hour started is charged). Saying how much keeps the two comparable.
 * @param owed - per open loan with an hour under way, its coin and that hour's interest
 * @returns the sentence, or undefined when nothing is owed
 */
export function unbilledInterestWarning(
  owed: readonly { readonly coin: string; readonly amount: Dec }[],
): string | undefined {
  if (owed.length === 0) return undefined;
  const byCoin = new Map<string, Dec>();
  for (const { coin, amount } of owed) byCoin.set(coin, byCoin.get(coin)?.plus(amount) ?? amount);
  const amounts = [...byCoin].map(([coin, amount]) => `${amount.toFixed()} ${coin}`).join(', ');
  return `loans were still open at the end: the interest of the hour under way (${amounts}) is not in the results, as the venue charges it when the hour ends, after the data; a run that repays before the end pays it`;
}
