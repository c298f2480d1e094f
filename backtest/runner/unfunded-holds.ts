import { type InstrumentSpec, isPerpetual } from '../../core/model/index.ts';
import type { OpenTrade, RoundTripTrade } from '../report/index.ts';
import { ASSUMED_FUNDING_INTERVAL_MS } from '../sim/index.ts';
import type { PerpFeed } from './perp-assumptions.ts';

/**
 * The funding times of the assumed 8-hour schedule ({@link ASSUMED_FUNDING_INTERVAL_MS}) at which
 * some trade of a sym was held, by fill times: entered at or before the funding time and exited
 * after it, or still open at the run's end after it. That is when the venue settles funding on
 * quotes and trades (its timer 1 ms after the funding time, after commands arriving at it); a
 * paper session, which sees only the fills, counts its holds so. A backtest takes the venue's own
 * count instead (`SimVenue.unfundedHolds`), exact on bars too.
 * @param trades - the closed round trips
 * @param openTrades - the positions still open at the end
 * @param end - the run's end, epoch ms (its last equity sample)
 * @returns per sym, the funding times held, in order
 */
export function fundingTimesHeld(
  trades: Iterable<RoundTripTrade>,
  openTrades: readonly OpenTrade[],
  end: number,
): Map<string, number[]> {
  const held = new Map<string, Set<number>>();
  const note = (sym: string, from: number, until: number) => {
    const times = held.get(sym) ?? new Set<number>();
    held.set(sym, times);
    for (
      let t = Math.ceil(from / ASSUMED_FUNDING_INTERVAL_MS) * ASSUMED_FUNDING_INTERVAL_MS;
      t < until;
      t += ASSUMED_FUNDING_INTERVAL_MS
    )
      times.add(t);
  };
  for (const trade of trades) note(trade.sym, trade.entryTs, trade.exitTs);
  for (const trade of openTrades) note(trade.sym, trade.entryTs, end);
  return new Map([...held].map(([sym, times]) => [sym, [...times].sort((a, b) => a - b)]));
}

/**
 * One warning per perpetual that had no funding data and yet held a position at a funding time
 * (of the common 8-hour schedule, {@link ASSUMED_FUNDING_INTERVAL_MS}): the venue charged no
 * funding there, so the result leaves out what the position would have paid or received.
 * @param instruments - the run's instruments (only perpetuals are looked at)
 * @param feedOf - what the market data gave of each perpetual
 * @param held - per sym, the funding times a position on it was held at (the venue's
 *   `SimVenue.unfundedHolds`, or {@link fundingTimesHeld} of a session's trades)
 * @param source - what the market data came from, as the sentences name it (`the feed` for a
 *   paper run)
 * @returns the warnings, in instrument order
 */
export function unfundedHoldWarnings(
  instruments: readonly InstrumentSpec[],
  feedOf: (sym: string) => Pick<PerpFeed, 'funding'>,
  held: ReadonlyMap<string, readonly number[]>,
  source = 'the recordings',
): string[] {
  const unfunded = instruments
    .filter((spec) => isPerpetual(spec.id) && !feedOf(spec.sym).funding)
    .map((spec) => [spec.sym, held.get(spec.sym) ?? []] as const);
  return unfunded.flatMap(([sym, times]) => {
    if (times.length === 0) return [];
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
