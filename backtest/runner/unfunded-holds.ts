import { type InstrumentSpec, isPerpetual } from '../../core/model/index.ts';
import type { OpenTrade, RoundTripTrade } from '../report/index.ts';
import type { PerpFeed } from './perp-assumptions.ts';

/**
 * Time between the funding times of a perpetual whose data gives none, for the warning of
 * {@link unfundedHoldWarnings}: perpetuals commonly fund every 8 hours, at 00:00, 08:00 and 16:00
 * UTC (Keel's choice of a schedule to warn on; the simulated venue charges nothing without data).
 */
export const ASSUMED_FUNDING_INTERVAL_MS = 8 * 3_600_000;

/** The funding times of the assumed schedule at or after `from` and before `until`, in order. */
function fundingTimesIn(from: number, until: number): number[] {
  const times: number[] = [];
  for (
    let t = Math.ceil(from / ASSUMED_FUNDING_INTERVAL_MS) * ASSUMED_FUNDING_INTERVAL_MS;
    t < until;
    t += ASSUMED_FUNDING_INTERVAL_MS
  )
    times.push(t);
  return times;
}

/**
 * One warning per perpetual that had no funding data and yet held a position at a funding time
 * (of the common 8-hour schedule, {@link ASSUMED_FUNDING_INTERVAL_MS}): the venue charged no
 * funding there, so the result leaves out what the position would have paid or received. A
 * position is held at a funding time when a trade entered at or before it and exited after it,
 * or is still open at the run's end after it.
 * @param instruments - the run's instruments (only perpetuals are looked at)
 * @param feedOf - what the market data gave of each perpetual
 * @param trades - the run's closed round trips
 * @param openTrades - the positions still open at the end
 * @param end - the run's end, epoch ms (its last equity sample)
 * @param source - what the market data came from, as the sentences name it (`the feed` for a
 *   paper run)
 * @returns the warnings, in instrument order
 */
export function unfundedHoldWarnings(
  instruments: readonly InstrumentSpec[],
  feedOf: (sym: string) => PerpFeed,
  trades: Iterable<RoundTripTrade>,
  openTrades: readonly OpenTrade[],
  end: number,
  source = 'the recordings',
): string[] {
  const unfunded = new Map<string, Set<number>>(
    instruments
      .filter((spec) => isPerpetual(spec.id) && !feedOf(spec.sym).funding)
      .map((spec) => [spec.sym, new Set<number>()]),
  );
  if (unfunded.size === 0) return [];
  const note = (sym: string, from: number, until: number) => {
    const crossed = unfunded.get(sym);
    if (crossed !== undefined) for (const t of fundingTimesIn(from, until)) crossed.add(t);
  };
  for (const trade of trades) note(trade.sym, trade.entryTs, trade.exitTs);
  for (const trade of openTrades) note(trade.sym, trade.entryTs, end);
  return [...unfunded].flatMap(([sym, crossed]) => {
    if (crossed.size === 0) return [];
    const times = [...crossed].sort((a, b) => a - b);
    const first = new Date(times[0] as number).toISOString();
    const when =
      times.length === 1
        ? `1 funding time (${first})`
        : `${times.length} funding times (the first ${first}, the last ${new Date(times[times.length - 1] as number).toISOString()})`;
    return [
      `${sym} was held across ${when} of the usual 8-hour funding schedule (00:00, 08:00, 16:00 UTC), but ${source} gave no funding rate of it: no funding was charged, so the result leaves out what the position would have paid or received (a recording by keel record keeps the MARK_PRICE funding rates)`,
    ];
  });
}
