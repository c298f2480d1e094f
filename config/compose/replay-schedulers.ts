import { type Scheduler, timerScheduler, VirtualClock } from '../../core/kernel/index.ts';

/*
 * The clocks of a paper session on the embedded paper venue: the session's time is the replay's
 * (the time the events carry), not the wall clock's, so `ctx.now()` and strategy timers run as in
 * a backtest of the same data. Live sessions use the kernel's wall scheduler.
 */

/**
 * A paper session's scheduler in lockstep: time follows the events, as in a backtest, and the
 * kernel fires the timers an event passes before delivering it. The venue ticks to the session's
 * earliest timer before it releases a later event (see `lockstepAcks`), so those timers fire at
 * their own time, before the venue sees that event. Time never passes the venue's own: a
 * timestamp made on the wall clock by the adapter (an order it reports REJECTED itself) cannot
 * throw the session a year ahead.
 * @param start - the session's time before the first event: the feed's first event's time
 * @param venueNow - the venue's time (the last released event's, a tick's, or a command's arrival)
 * @returns a scheduler whose clock follows event time
 */
export function lockstepReplayScheduler(start: number, venueNow: () => number): Scheduler {
  const clock = new VirtualClock(start);
  return {
    clock,
    followsEventTime: true,
    advanceTo(ts: number): void {
      clock.advanceTo(Math.min(ts, Math.max(start, venueNow())));
    },
    wakeAt(): void {},
    cancelWake(): void {},
  };
}

/** A paper venue's replay time in realtime pacing, as a paced session's scheduler reads it. */
export interface PacedReplayTime {
  /** @returns the venue's replay time, never before its clock (see `PaperVenue.replayNow`) */
  now(): number;
  /**
   * @returns the replay's running time alone, which runs on where {@link PacedReplayTime.now}
   * stands still at the venue's clock (see `PaperVenue.replayRunningNow`)
   */
  running(): number;
}

/**
 * A paper session's scheduler in realtime pacing: time is the replay's, running at `speed` times
 * the wall clock between events (the venue's own running time), never backwards; a timer wakes
 * the kernel when the replay reaches it, i.e. after (due - now) / speed wall milliseconds, and
 * sleeps again when the replay ran slower than its pace. A timer not yet due waits for the
 * replay's running time to reach it: after the feed released an event late, that time restarts
 * from the event's and the session's clock stands still until it catches up (so does the venue's
 * replay time where a delayed command's arrival moved the venue's clock ahead of that event), and
 * a wake-up measured from either would come back every (due - now) / speed ms until then (every
 * millisecond for a timer due in one, for as long as the release was late, each one ticking the
 * venue). Before each wake-up the venue is told the time the timers fire at (`timerFires`), so
 * what they send runs there at that time, as in a backtest, and not at the time of the last
 * market event the venue matched.
 * @param start - the session's time before the venue released anything: the feed's first event's time
 * @param replay - the venue's replay time and its running time
 * @param speed - the replay's speed (2 = twice real time)
 * @param timerFires - told the session's time just before the kernel fires the timers due by
 *   then (see `PaperVenue.timerFires`)
 * @returns a scheduler on replay time, woken by real timers
 */
export function pacedReplayScheduler(
  start: number,
  replay: PacedReplayTime,
  speed: number,
  timerFires: (at: number) => void,
): Scheduler {
  let latest = start;
  const now = (): number => {
    latest = Math.max(latest, replay.now());
    return latest;
  };
  // Before the venue released anything its clock reads 0: the replay is at its first event then.
  const running = (): number => Math.max(start, replay.running());
  const timers = timerScheduler({ now }, speed, running);
  return {
    ...timers,
    wakeAt(at: number, wake: () => void): void {
      timers.wakeAt(at, () => {
        timerFires(now());
        wake();
      });
    },
  };
}
