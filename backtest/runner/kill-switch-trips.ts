import { DateTime } from 'luxon';
import type { IntentGate } from '../../core/kernel/index.ts';
import type { TradingStatus } from '../../core/risk/index.ts';

/**
 * The kill switch's trips during a run (a backtest, a paper or a live session), for the result's
 * warnings: once it trips, intents are denied (`tradingState`) and an end-of-run close may be
 * refused, which without the trip named read as unexplained denials and unfilled closes.
 */
export class KillSwitchTrips {
  private readonly trips: TradingStatus[] = [];
  /** What each trip's sweep did, by the trip: how many orders it asked to cancel, which protective ones it kept. */
  private readonly sweeps = new Map<TradingStatus, { cancelled: number; kept: readonly string[] }>();
  private readonly stopListening: (() => void) | undefined;

  /** @param gate - the run's risk gate (a gate without a kill switch never trips) */
  constructor(gate: IntentGate) {
    this.stopListening = gate.onKillSwitchTrip?.((trip) => this.trips.push(trip));
  }

  /**
   * Notes what a trip's sweep of the strategies' orders cancelled and kept, for its warning.
   * @param trip - the trip, as the gate reported it
   * @param cancelled - how many orders and algo orders the sweep asked to be cancelled
   * @param kept - the protective orders of open positions a sweep of a trip to HALTED kept (their
   *   references; a trailing stop's as `<ref> (trailing stop)`); none for a trip to REDUCING
   */
  swept(trip: TradingStatus, cancelled: number, kept: readonly string[] = []): void {
    this.sweeps.set(trip, { cancelled, kept });
  }

  /** Stops listening to the gate (the run ended); the trips seen so far stay. */
  stop(): void {
    this.stopListening?.();
  }

  /**
   * @returns one sentence per trip: when, into which state, why, what passes after it, what its
   *   sweep cancelled and which protective orders it kept
   */
  warnings(): string[] {
    return this.trips.map((trip) => {
      const at =
        trip.since === undefined
          ? ''
          : ` at ${DateTime.fromMillis(trip.since, { zone: 'utc' }).toFormat("yyyy-MM-dd HH:mm:ss.SSS 'UTC'")}`;
      const after =
        trip.state === 'HALTED'
          ? 'only cancels passed (and the orders of reduce-only trailing stops placed before it)'
          : 'only risk-reducing intents passed';
      const swept = this.sweeps.get(trip);
      const sweep = swept === undefined ? '' : `; ${sweepSentence(trip, swept.cancelled, swept.kept)}`;
      return `the kill switch tripped to ${trip.state}${at} (${(trip.reason ?? 'no reason given').replace(/^kill switch: /, '')}); after it ${after}${sweep}`;
    });
  }
}

/**
 * What a trip's sweep did, in words.
 * @param trip - the trip
 * @param cancelled - how many orders and algo orders it asked to cancel
 * @param kept - the protective orders it kept (a trip to HALTED)
 * @returns e.g. `its sweep cancelled 3 order(s) and algo order(s) that do not protect an open
 *   position and kept 1 protective order(s): hx-3`
 */
function sweepSentence(trip: TradingStatus, cancelled: number, kept: readonly string[]): string {
  if (trip.state !== 'HALTED')
    return `its sweeps cancelled ${cancelled} order(s) and algo order(s) that would add risk`;
  const keptText =
    kept.length === 0
      ? '; it kept no protective order'
      : ` and kept ${kept.length} protective order(s) of open positions: ${kept.join(', ')}`;
  return `its sweep cancelled ${cancelled} order(s) and algo order(s) that do not protect an open position${keptText}`;
}
