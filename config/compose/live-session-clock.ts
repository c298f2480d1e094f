/** What a live session's clock reads: Keel's estimate of the venue's clock (`ServerClock`). */
export interface VenueTimeSource {
  /** @returns the venue's time as estimated, epoch ms */
  now(): number;
}

/**
 * A live session's clock: the venue's time as Keel estimates it from the `Date` header of its
 * replies (`ServerClock`, followed at the rate the venue states), never going back when the
 * estimate is corrected. It stamps what the session makes itself (equity points, denials, the
 * strategies' `ctx.now()` and timers, the start and end, the recording's receive times, the
 * events the venue adapter makes) on the clock the venue's fills, orders and trades carry. For a
 * real venue it is this machine's clock, unless the replies prove that off by more than the
 * `Date` header's second; for `keel venue` replaying an older recording in realtime pacing it is
 * the replay's time.
 * @param venue - the estimate of the venue's clock (share the session's venue adapter's)
 * @returns the clock, epoch ms
 */
export function liveSessionClock(venue: VenueTimeSource): () => number {
  let newest = Number.NEGATIVE_INFINITY;
  return () => {
    newest = Math.max(newest, venue.now());
    return newest;
  };
}
