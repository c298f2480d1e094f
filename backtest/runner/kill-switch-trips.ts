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
  /** How many orders and algo orders each trip's sweep asked to cancel, by the trip. */
  private readonly sweeps = new Map<TradingStatus, number>();
  private readonly stopListening: (() => void) | undefined;

  /** @param gate - the run's risk gate (a gate without a kill switch never trips) */
  constructor(gate: IntentGate) {
    this.stopListening = gate.onKillSwitchTrip?.((trip) => this.trips.push(trip));
  }

  /**
   * Notes what a trip's sweep of the strategies' orders cancelled, for its warning.
   * @param trip - the trip, as the gate reported it
   * @param cancelled - how many orders and algo orders the sweep asked to be cancelled
   */
  swept(trip: TradingStatus, cancelled: number): void {
    this.sweeps.set(trip, cancelled);
  }

  /** Stops listening to the gate (the run ended); the trips seen so far stay. */
  stop(): void {
    this.stopListening?.();
  }

  /** @returns one sentence per trip: when, into which state, why, what passes after it and what its sweep cancelled */
  warnings(): string[] {
    return this.trips.map((trip) => {
      const at =
        trip.since === undefined
          ? ''
          : ` at ${DateTime.fromMillis(trip.since, { zone: 'utc' }).toFormat("yyyy-MM-dd HH:mm:ss.SSS 'UTC'")}`;
      const after = trip.state === 'HALTED' ? 'only cancels passed' : 'only risk-reducing intents passed';
      const cancelled = this.sweeps.get(trip);
      const sweep =
        cancelled === undefined
          ? ''
          : `; its sweep cancelled ${cancelled} order(s) and algo order(s)${trip.state === 'HALTED' ? '' : ' that would add risk'}`;
      return `the kill switch tripped to ${trip.state}${at} (${(trip.reason ?? 'no reason given').replace(/^kill switch: /, '')}); after it ${after}${sweep}`;
    });
  }
}
