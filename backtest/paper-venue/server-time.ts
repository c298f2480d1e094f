import type { TimerPort } from '../../core/venue/index.ts';
import type { FeedPacing } from './market-feed.ts';
import type { VenueLatency } from './venue-latency.ts';

/**
 * The one clock the paper venue presents to its clients: its REST `Date` header, and what it
 * checks a REST nonce and a private-socket login timestamp against (±60 s, per public venue docs).
 */
export interface ServerTime {
  /** @returns the venue's clock, epoch ms */
  now(): number;
  /**
   * How many ms that clock moves per ms of real time, stated in `CLOCK_RATE_HEADER` so a client
   * can keep pace between replies; undefined = not stated (real time, or no fixed rate).
   */
  readonly rate: number | undefined;
}

/**
 * The paper venue's server clock. In realtime pacing it is the replay's clock, the one its market
 * data, orders and fills are stamped on (the last released event's time plus the wall time since
 * times the speed), as a real venue presents one clock: a client estimating the venue's time from
 * the `Date` header then finds the venue's stamps on it, at any speed. It never goes back (a feed
 * running behind its pace holds it), and before the first event is released it is the wall clock
 * (`startPaperVenue` returns once that event is out, so only an empty feed shows it). After a
 * restart of a feed stamped on the wall clock, while the downtime's events go out at once, it is
 * the resumed clock the feed catches up with (`MarketFeed.catchingUpTo`), not the replay's, which
 * starts behind it: a client answered then is not told a clock it would step back from. In
 * lockstep, asap and manual pacing the venue's time moves only with the events, at no rate a
 * client could follow between replies: there it is the wall clock.
 * @param pacing - the feed's pacing
 * @param wall - the injected wall clock
 * @param replay - the venue's latency, whose clock runs at the replay's pace
 * @param catchingUpTo - the resumed clock a restarted feed is catching up with, undefined when none
 * @returns the clock
 */
export function serverTime(
  pacing: FeedPacing,
  wall: Pick<TimerPort, 'now'>,
  replay: Pick<VenueLatency, 'now' | 'started'>,
  catchingUpTo: () => number | undefined,
): ServerTime {
  if (pacing.mode !== 'realtime') return { now: () => wall.now(), rate: undefined };
  let shown = Number.NEGATIVE_INFINITY;
  return {
    rate: pacing.speed ?? 1,
    now(): number {
      if (!replay.started) return wall.now();
      shown = Math.max(shown, replay.now(), catchingUpTo() ?? Number.NEGATIVE_INFINITY);
      return shown;
    },
  };
}
