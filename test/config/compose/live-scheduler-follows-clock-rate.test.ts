import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { liveSessionClock, liveSessionScheduler } from '../../../config/compose/live-session-clock.ts';
import { KernelTimers } from '../../../core/kernel/kernel-timers.ts';
import { clockRateOf, ServerClock } from '../../../core/venue/index.ts';

const T = 1_700_000_000_000;
const silent = pino({ level: 'silent' });

/**
 * The live scheduler read ServerClock's rate once, at the session's start. A session whose start-up
 * replies came while `keel venue --speed 5` held its Date header (its feed behind its pace) starts
 * on real time, and follows 5x once the replies bear it out: a 60 s `every` armed at real time then
 * fired five times back to back every five venue minutes instead of once a venue minute.
 */
describe('the live scheduler of a session whose venue clock rate changes after the start', () => {
  afterEach(() => vi.useRealTimers());

  it('fires a 60 s every() once a venue minute once the stated rate is followed again', () => {
    vi.useFakeTimers({ now: T });
    const clock = new ServerClock({ now: () => Date.now(), setTimer: () => () => undefined }, silent);
    const rate = clockRateOf('5');
    const V0 = T - 400 * 86_400_000;
    // The venue's Date header is held at V0 for the first 3 s, then runs at 5x.
    const venueAt = (wall: number): number => (wall < T + 3_000 ? V0 : V0 + (wall - T - 3_000) * 5);
    const reply = (): void => {
      const sent = Date.now();
      vi.advanceTimersByTime(2);
      const stamped = venueAt(Date.now());
      vi.advanceTimersByTime(2);
      clock.observe(new Date(stamped).toUTCString(), sent, Date.now(), rate);
    };
    // Start-up checks, 300 ms apart inside the hold: the venue's clock is followed at real time.
    for (let i = 0; i < 6; i++) {
      reply();
      vi.advanceTimersByTime(300);
    }
    expect(clock.rate).toBe(1);
    const session = liveSessionClock(clock);
    const scheduler = liveSessionScheduler(clock, session);
    const fired: number[] = [];
    const fire = (): boolean => {
      fired.push(session());
      return true;
    };
    const timers = new KernelTimers(scheduler, () => timers.fireDueNow(fire));
    const start = session();
    timers.set(0, start + 60_000, 60_000, 'every-minute');
    vi.advanceTimersByTime(3_000);
    // The feed is at its pace again: the replies bear the stated rate out.
    for (let i = 0; i < 4; i++) {
      reply();
      vi.advanceTimersByTime(400);
    }
    expect(clock.rate).toBe(5);
    // 60 s of wall time = 300 s of venue time: five venue minutes.
    for (let i = 0; i < 600; i++) vi.advanceTimersByTime(100);
    const offsetsS = fired.map((ts) => Math.round((ts - start) / 1000));
    expect(offsetsS.length).toBeGreaterThanOrEqual(4);
    // One firing a venue minute, none back to back.
    for (const [i, offset] of offsetsS.entries())
      if (i > 0) expect(offset - (offsetsS[i - 1] ?? 0)).toBeGreaterThan(30);
  });
});
