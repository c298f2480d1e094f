import { type Scheduler, timerScheduler } from '../../core/kernel/index.ts';

/** What a live session's clock reads: Keel's estimate of the venue's clock (`ServerClock`). */
export interface VenueTimeSource {
  /** @returns the venue's time as estimated, epoch ms */
  now(): number;
}

/** Keel's estimate of the venue's clock with the rate it follows it at (`ServerClock`). */
export interface PacedVenueTimeSource extends VenueTimeSource {
  /** How many ms the venue's clock moves per local ms, as followed now. */
  readonly rate: number;
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

/**
 * A live session's scheduler: the strategies' clock and timers are the session's clock, woken at
 * the rate the venue's clock is followed at (`keel venue --speed`), read as it changes: a rate the
 * venue's replies disprove and bear out again during the session would otherwise leave a timer
 * armed at the old one (a 60 s `every` firing five times back to back at 5x, or five times late).
 * A timer not yet due waits for the estimate to reach its time: after a re-sync stepped the
 * estimate back, the session's clock stands still until the estimate catches up with it, and a
 * wake-up measured from the session's clock would come back every (due - now) ms until then (every
 * millisecond for a timer due in one, for as long as the step).
 * @param venue - the estimate of the venue's clock the session's clock reads
 * @param sessionClock - the session's clock ({@link liveSessionClock} over `venue`)
 * @returns the scheduler
 */
export function liveSessionScheduler(venue: PacedVenueTimeSource, sessionClock: () => number): Scheduler {
  return timerScheduler(
    { now: sessionClock },
    () => venue.rate,
    () => venue.now(),
  );
}
