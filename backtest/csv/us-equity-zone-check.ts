import { DateTime } from 'luxon';
import { isUsEquitySessionOpen } from '../../core/kernel/index.ts';
import { BAR_INTERVAL_MS, type BarInterval, parseSym } from '../../core/model/index.ts';

const DAY_MS = 86_400_000;
/** Bars looked at, spread evenly over the file: enough to tell, bounded for long files. */
const SAMPLE = 1000;

/**
 * Which bars {@link usEquityZoneWarning} looks at: every `step`-th, from the first.
 * @param bars - how many bars the file holds
 * @returns the step
 */
export function zoneCheckStep(bars: number): number {
  return Math.max(1, Math.floor(bars / SAMPLE));
}

/**
 * A warning when the intraday bars of a US equity, read in UTC, fall mostly outside the regular
 * session while, read as New York time, they all fall in the (extended) session: a file written in
 * New York local time without offsets, imported without `--zone America/New_York`, whose session
 * would otherwise trade hours early (09:30 read as 09:30 UTC, the pre-market).
 * @param sym - the sym the bars are of
 * @param interval - their interval
 * @param openTimes - open times as read (epoch ms) of the bars {@link zoneCheckStep} picks
 * @param zone - the zone the times were read in
 * @returns the warning, or undefined when the times look right (or are not US equity intraday bars)
 */
export function usEquityZoneWarning(
  sym: string,
  interval: BarInterval,
  openTimes: readonly number[],
  zone: string,
): string | undefined {
  if (parseSym(sym).kind !== 'equity' || BAR_INTERVAL_MS[interval] >= DAY_MS || zone !== 'UTC')
    return undefined;
  let n = 0;
  const asRead = { regular: 0, extended: 0 };
  const asNewYork = { regular: 0, extended: 0 };
  const count = (tally: { regular: number; extended: number }, ts: number) => {
    if (isUsEquitySessionOpen(ts)) tally.regular++;
    if (isUsEquitySessionOpen(ts, { extended: true })) tally.extended++;
  };
  for (const ts of openTimes) {
    n++;
    count(asRead, ts);
    count(
      asNewYork,
      DateTime.fromMillis(ts, { zone: 'UTC' })
        .setZone('America/New_York', { keepLocalTime: true })
        .toMillis(),
    );
  }
  const regularMoved = asNewYork.regular > asRead.regular;
  const extendedMoved = asNewYork.extended > asRead.extended + 0.1 * n;
  if (n === 0 || asRead.regular >= n / 2 || asNewYork.extended < 0.95 * n || !(regularMoved || extendedMoved))
    return undefined;
  const share = (k: number) => `${Math.round((100 * k) / n)} %`;
  const [session, read, newYork] = regularMoved
    ? ['regular session', asRead.regular, asNewYork.regular]
    : ['extended session (04:00-20:00)', asRead.extended, asNewYork.extended];
  return `${share(read)} of the bars fall in the US ${session} as read (times in UTC), ${share(newYork)} read as New York time: if the file's times are New York local time without an offset, import it with --zone America/New_York`;
}
