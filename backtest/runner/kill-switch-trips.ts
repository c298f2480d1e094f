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
  private readonly stopListening: (() => void) | undefined;

  /** @param gate - the run's risk gate (a gate without a kill switch never trips) */
  constructor(gate: IntentGate) {
    this.stopListening = gate.onKillSwitchTrip?.((trip) => this.trips.push(trip));
  }

  /** Stops listening to the gate (the run ended); the trips seen so far stay. */
  stop(): void {
    this.stopListening?.();
  }

  /** @returns one sentence per trip: when, into which state, why, and what passes after it */
  warnings(): string[] {
    return this.trips.map((trip) => {
      const at =
        trip.since === undefined
          ? ''
          : ` at ${DateTime.fromMillis(trip.since, { zone: 'utc' }).toFormat("yyyy-MM-dd HH:mm:ss.SSS 'UTC'")}`;
      const after = trip.state === 'HALTED' ? 'only cancels passed' : 'only risk-reducing intents passed';
      return `the kill switch tripped to ${trip.state}${at} (${(trip.reason ?? 'no reason given').replace(/^kill switch: /, '')}); after it ${after}`;
    });
  }
}
