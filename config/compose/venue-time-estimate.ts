import type { MarketEvent } from '../../core/model/index.ts';

/** One market event's venue time and the session clock's time when it arrived. */
interface Sighting {
  readonly venueTs: number;
  readonly sessionTs: number;
}

/**
 * The venue's time as a live session sees it in its market data, for windows the venue checks
 * against its own clock (the statements'). A venue's clock need not be the machine's: Keel's paper
 * venue (`keel venue`) runs on the time of the market events it releases, which starts at the
 * minute and falls further behind after a restart from its data dir. The REST replies' `Date`
 * header follows that time in realtime pacing only (the wall clock otherwise), so the quotes' and
 * trades' own venue times are read instead (a bar is stamped at its close, ahead of the venue while it forms; a gap
 * on the local clock). A time before the newest sighting is read back from the first one (the
 * session's start, before its market data flows); one after it, forward from the newest: the
 * venue's time then, less the network's delay, so a window's begin never lies ahead of the
 * venue's clock.
 */
export class VenueTimeEstimate {
  private first: Sighting | undefined;
  private newest: Sighting | undefined;

  /**
   * Takes in one market event as it arrives.
   * @param event - the event (only quotes and trades are read)
   * @param sessionTs - the session clock's time now, epoch ms
   */
  observe(event: MarketEvent, sessionTs: number): void {
    if (event.kind !== 'quote' && event.kind !== 'trade') return;
    const sighting = { venueTs: event.ts, sessionTs };
    this.first ??= sighting;
    if (this.newest === undefined || event.ts >= this.newest.venueTs) this.newest = sighting;
  }

  /**
   * The venue's time at a time of the session's clock; that time itself while no quote or trade
   * arrived (the session's clock, the venue's `Date` header, is then the best guess).
   * @param sessionTs - a time of the session's clock, epoch ms
   * @returns the venue's time then, epoch ms
   */
  at(sessionTs: number): number {
    const { first, newest } = this;
    if (first === undefined || newest === undefined) return sessionTs;
    const from = sessionTs >= newest.sessionTs ? newest : first;
    return from.venueTs + (sessionTs - from.sessionTs);
  }
}
