import type { TimerPort } from '../../core/venue/index.ts';
import type { VenueSessionOptions } from './venue-session-options.ts';

/** How long an armed timer waits at most before reading the session's clock and rate again, wall ms (Keel's choice). */
const RECHECK_MS = 1_000;

/**
 * A timer port on the session's clock: a timer of `ms` fires once the session's clock has moved
 * `ms` on, whatever the pace of that clock against the wall's (a paper replay at `paper.speed`,
 * a lockstep replay moving with its events, a live venue's stated rate). It is armed for the
 * wall time the rate gives, and read again at least once a wall second: a pace that changed, or a
 * lockstep replay slower than its top speed, re-arms it from the clock's time then. While the
 * clock it waits on stands still (a paper session's, the venue's last event's time, between events
 * of a quiet feed), each wait is twice the last, up to that second: (due - now) / rate would come
 * back just as soon every time, every millisecond for a timer due in one, until the next event.
 * A timer fires at most as long after the clock reached its time as the clock had stood still
 * before (and at most that second). Its timers do not keep the process alive (the session's own
 * stop ends it).
 * @param sessionClock - the session's clock, epoch ms
 * @param rate - how many ms the session's clock moves per wall ms, as now (the fastest it may, in lockstep)
 * @param running - the clock under the session's that runs at `rate` (default the session's own): a
 *   live session's venue clock estimate, which the session's clock stands still for after a
 *   re-sync stepped it back, until it catches up. A timer waits for it to reach its time, not
 *   (due - now) ms at a time, which until then would be every millisecond for a timer due in one.
 * @returns the port
 */
export function sessionTimer(
  sessionClock: () => number,
  rate: () => number,
  running: () => number = sessionClock,
): TimerPort {
  return {
    now: sessionClock,
    setTimer(fn, ms) {
      const due = sessionClock() + ms;
      let handle: ReturnType<typeof setTimeout> | undefined;
      let last: { readonly at: number; readonly wallMs: number } | undefined;
      const arm = (): void => {
        const at = running();
        const left = sessionClock() >= due ? 0 : due - at;
        let wallMs = Math.min(RECHECK_MS, Math.max(1, Math.ceil(left / rate())));
        if (last?.at === at) wallMs = Math.min(RECHECK_MS, Math.max(wallMs, 2 * last.wallMs));
        last = { at, wallMs };
        handle = setTimeout(() => {
          handle = undefined;
          if (sessionClock() >= due) fn();
          else arm();
        }, wallMs);
        handle.unref();
      };
      arm();
      return () => {
        if (handle !== undefined) clearTimeout(handle);
        handle = undefined;
      };
    },
  };
}

/**
 * How fast a session's clock runs against the wall's, as the session's scheduler takes it: a paper
 * session's replay speed (`paper.speed`, in lockstep the fastest it may go), a live session's
 * venue clock rate as followed now (`keel venue --speed`; 1 for a real venue).
 * @param options - the session's mode, config and venue clock estimate
 * @returns the rate, read as it changes
 */
export function sessionClockRate(
  options: Pick<VenueSessionOptions, 'mode' | 'config' | 'serverClock'>,
): () => number {
  if (options.mode === 'paper') {
    const speed = options.config.paper?.speed ?? 1;
    return () => speed;
  }
  const clock = options.serverClock;
  return () => clock?.rate ?? 1;
}

/**
 * A session's timer port ({@link sessionTimer}) on its clock at its rate ({@link sessionClockRate}),
 * waiting on the venue clock estimate under a live session's clock.
 * @param options - the session's mode, config, clock and venue clock estimate
 * @returns the port
 */
export function sessionTimerOf(
  options: Pick<VenueSessionOptions, 'mode' | 'config' | 'serverClock' | 'sessionClock'>,
): TimerPort {
  const estimate = options.mode === 'live' ? options.serverClock : undefined;
  const running = estimate === undefined ? options.sessionClock : () => estimate.now();
  return sessionTimer(options.sessionClock, sessionClockRate(options), running);
}
