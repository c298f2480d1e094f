import type { MarketEvent } from '../../core/model/index.ts';
import type { SimState } from './sim-state.ts';

/**
 * When a market event happened on the venue, in the sim's clock (the recorder's: the two clocks
 * are taken as synchronised): its venue stamp `ts`. An event without one (not a number), or
 * stamped later than it was received (a venue clock ahead of the recorder's), counts as happening
 * when it was received (`recvTs`), the latest it can have happened (Keel's choice).
 * @param event - a recorded market event
 * @returns epoch ms, never after `recvTs`
 */
export function venueTimeOf(event: MarketEvent): number {
  return event.ts <= event.recvTs ? event.ts : event.recvTs;
}

/**
 * The venue time at which what the venue does now happens: the venue time of the market event
 * being matched (a triggered order, a tp / sl attachment placed on a fill exists from the print
 * that caused it), otherwise the virtual time (a command's arrival, a timer).
 * @param state - the venue
 * @returns epoch ms
 */
export function venueNow(state: SimState): number {
  return Number.isNaN(state.matchingAt) ? state.now : state.matchingAt;
}
