import type { MarketEvent } from '../../core/model/index.ts';
import type { SimState } from './sim-state.ts';

/**
 * The latest arrival at the venue of an order that meets a market event, in the sim's clock (the
 * recorder's: the two clocks are taken as synchronised). A print (a trade) is an instant: only
 * orders the venue had received by its venue stamp `ts` meet it, so the feed's delay does not let
 * an order trade with a print from before it arrived. A quote, book or mark is the venue's state
 * from its stamp until the next update, so an order that arrived after it was stamped still met
 * it standing: every order received by its receipt (`recvTs`) meets it, as before the feed delay
 * was charged. A print without a stamp (not a number), or stamped later than it was received (a
 * venue clock ahead of the recorder's), counts at its receipt, the latest it can have happened
 * (Keel's choice).
 * @param event - a recorded market event
 * @returns epoch ms, never after `recvTs`
 */
export function venueTimeOf(event: MarketEvent): number {
  return event.kind === 'trade' && event.ts <= event.recvTs ? event.ts : event.recvTs;
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
