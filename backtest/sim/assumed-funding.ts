import { isPerpetual } from '../../core/model/index.ts';
import type { SimState } from './sim-state.ts';

/**
 * Time between the funding times the venue notes positions at for a perpetual whose data gives
 * none: perpetuals commonly fund every 8 hours, at 00:00, 08:00 and 16:00 UTC (Keel's choice of a
 * schedule to warn on; the simulated venue charges nothing without data).
 */
export const ASSUMED_FUNDING_INTERVAL_MS = 8 * 3_600_000;

/**
 * The funding times of the assumed 8-hour schedule at which the venue held a position on a
 * perpetual it had no funding data of, noted at the moment the venue would have settled each
 * had the data existed (see {@link noteAssumedFunding}).
 */
export interface AssumedFundingLog {
  /** The next funding time of the schedule not looked at yet; NaN before the venue's first work. */
  next: number;
  /** Per sym, the funding times a position on it was held at, in order. */
  readonly held: Map<string, number[]>;
}

/** @returns an empty log */
export function createAssumedFundingLog(): AssumedFundingLog {
  return { next: Number.NaN, held: new Map() };
}

/**
 * Notes, for each funding time of the assumed schedule before `at` not noted yet, the perpetuals
 * without funding data (no recorded nextFundingTime yet) the venue holds a position on: the venue
 * calls it before any work it does at `at` (a command's arrival, a timer, a market event's
 * matching), so a funding time counts the positions as funding data would have settled it, on the
 * first work after it. On quotes and trades that is the funding timer 1 ms after the funding time
 * (`timers.ts`): commands arriving at the funding time itself run first. On bars it is a mark
 * stamped after the funding time, which reaches the venue before the bar whose span holds the
 * funding time is matched: the position from before that bar's open fills pays (see the sim
 * README, Time and latency), and a bar closing at the funding time is matched before it.
 * @param state - the venue
 * @param log - the log, mutated
 * @param at - when the venue's next work happens, epoch ms
 */
export function noteAssumedFunding(state: SimState, log: AssumedFundingLog, at: number): void {
  if (!(log.next < at)) {
    if (Number.isNaN(log.next))
      log.next = Math.ceil(at / ASSUMED_FUNDING_INTERVAL_MS) * ASSUMED_FUNDING_INTERVAL_MS;
    return;
  }
  // Positions change only at the venue's work, so those held now were held at every time passed.
  const syms = new Set<string>();
  for (const position of state.positions.values()) {
    if (position.qty.isZero() || syms.has(position.sym)) continue;
    const spec = state.opts.instruments.get(position.sym);
    const market = state.markets.get(position.sym);
    if (spec === undefined || !isPerpetual(spec.id)) continue;
    if (market !== undefined && !Number.isNaN(market.nextFundingTime)) continue;
    syms.add(position.sym);
  }
  for (; log.next < at; log.next += ASSUMED_FUNDING_INTERVAL_MS) {
    for (const sym of syms) {
      const times = log.held.get(sym);
      if (times === undefined) log.held.set(sym, [log.next]);
      else times.push(log.next);
    }
  }
}
