import fc from 'fast-check';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { liveSessionClock } from '../../../config/compose/live-session-clock.ts';
import { clockRateOf, ServerClock } from '../../../core/venue/index.ts';
import { fakeTimer } from '../../kit/venue-fake-timer.ts';

const T = 1_700_000_000_000;
const silent = pino({ level: 'silent' });

/**
 * `keel venue --speed N` states its rate in x-keel-clock-rate, and its `Date` header is its replay
 * clock, which holds still while its feed runs behind its pace (paper-venue server-time.ts). Two
 * REST replies inside a short hold (an order and its cancel) contradicted the stated rate and
 * agreed at real time within the header's 1 s grain, so ServerClock dropped to real time; with no
 * REST reply for a while after (a quiet strategy), the session's clock, its timers and the nonces
 * ran at 1x, minutes behind the venue (speed 5, 2 s hold, 60 s quiet: 238 s behind, past the ±60 s
 * nonce window). The hold with 0 ms is the control.
 */
describe('ServerClock: a sped-up paper venue whose Date header holds for a moment', () => {
  for (const { speed, holdMs, gapMs, quietMs } of [
    { speed: 5, holdMs: 2_000, gapMs: 500, quietMs: 60_000 },
    { speed: 60, holdMs: 150, gapMs: 60, quietMs: 5_000 },
    { speed: 5, holdMs: 0, gapMs: 500, quietMs: 60_000 },
  ])
    it(`keeps following speed ${speed} through a ${holdMs} ms hold with two replies in it`, async () => {
      const timer = fakeTimer(T);
      const clock = new ServerClock(timer, silent);
      const session = liveSessionClock(clock);
      const rate = clockRateOf(String(speed));
      const V0 = T - 400 * 86_400_000;
      let venueAt = (wall: number): number => V0 + (wall - T) * speed;
      const reply = async (): Promise<void> => {
        const sent = timer.now();
        await timer.advance(2);
        const stamped = venueAt(timer.now());
        await timer.advance(2);
        clock.observe(new Date(stamped).toUTCString(), sent, timer.now(), rate);
      };
      // Start-up checks: a few replies 300 ms apart.
      for (let i = 0; i < 5; i++) {
        await reply();
        await timer.advance(300);
      }
      expect(clock.rate).toBe(speed);
      // The feed falls behind its pace: the Date header holds for holdMs of wall time, then runs on.
      const holdWall = timer.now();
      const held = venueAt(holdWall);
      venueAt = (wall) => (wall < holdWall + holdMs ? held : held + (wall - holdWall - holdMs) * speed);
      await timer.advance(Math.min(10, holdMs));
      await reply(); // an order placed
      await timer.advance(gapMs);
      await reply(); // and its cancel
      await timer.advance(Math.max(0, holdMs - gapMs));
      // No REST reply for a while.
      await timer.advance(quietMs);
      const venueNow = venueAt(timer.now());
      expect(clock.rate).toBe(speed);
      // Not behind the venue; ahead by at most the venue time the hold withheld, which no estimate
      // between replies can foresee.
      const lagMs = venueNow - session();
      expect(lagMs).toBeLessThan(1_000);
      expect(-lagMs).toBeLessThanOrEqual(holdMs * speed + 1_000);
      expect(Math.abs(Math.floor(venueNow / 1000) - clock.nowSeconds())).toBeLessThanOrEqual(60);
    });

  it('never drops a stated rate of 3 or more its replies bore out for one hold of the Date header, however long (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: 100 }),
        fc.integer({ min: 0, max: 30_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.array(
          fc.record({ gap: fc.integer({ min: 1, max: 2_000 }), rtt: fc.integer({ min: 0, max: 50 }) }),
          { minLength: 1, maxLength: 40 },
        ),
        (rate, holdFrom, holdMs, exchanges) => {
          const timer = fakeTimer(T);
          const clock = new ServerClock(timer, silent);
          const paced = (at: number): number => T + (at - T) * rate;
          const holdAt = T + 1_000 + holdFrom;
          const venueAt = (at: number): number =>
            at < holdAt ? paced(at) : at < holdAt + holdMs ? paced(holdAt) : paced(at - holdMs);
          // Two start-up replies 1 s apart bear the rate out.
          clock.observe(new Date(T).toUTCString(), T, T, rate);
          let local = T + 1_000;
          clock.observe(new Date(paced(local)).toUTCString(), local, local, rate);
          for (const { gap, rtt } of exchanges) {
            local += gap;
            clock.observe(
              new Date(venueAt(local + Math.floor(rtt / 2))).toUTCString(),
              local,
              local + rtt,
              rate,
            );
            expect(clock.rate).toBe(rate);
          }
        },
      ),
    );
  });
});
