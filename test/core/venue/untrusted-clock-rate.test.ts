import fc from 'fast-check';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { clockRateOf, ServerClock } from '../../../core/venue/index.ts';
import { fakeTimer } from '../../kit/venue-fake-timer.ts';

const T = 1_700_000_000_000;
const silent = pino({ level: 'silent' });

/** The `Date` header a server whose clock reads `serverMs` sends. */
const dateAt = (serverMs: number): string => new Date(serverMs).toUTCString();

/**
 * x-keel-clock-rate was believed from any reply up to 100 000. A venue whose clock runs at real
 * time but whose replies carry the header (a hostile venue, a proxy injecting or replaying it)
 * made Keel's estimate run 100 000x: 1 ms of round trip = 100 s of estimated venue time, past the
 * ±60 s nonce window (code 7000); rest-call's one re-sign after re-observing from the refusal
 * landed > 60 s off too, so every signed request was refused for as long as the header came.
 * Simulation: 50 requests, 1 s apart, each 2 ms to the venue and 2 ms back; the venue checks the
 * nonce (whole seconds) against its real clock (= the machine's, +0 offset); a refusal's reply is
 * observed and the request re-signed once, as rest-call does.
 */
describe('ServerClock: a bogus x-keel-clock-rate from a real-time venue', () => {
  it('does not get every signed request refused for ever', async () => {
    const timer = fakeTimer(T);
    const clock = new ServerClock(timer, silent);
    const header = clockRateOf('100000');
    let refused = 0;
    const attempt = async (): Promise<boolean> => {
      const sent = timer.now();
      const nonce = clock.nowSeconds();
      await timer.advance(2);
      const serverMs = timer.now(); // a real-time venue: its clock is the machine's
      const ok = Math.abs(nonce - Math.floor(serverMs / 1000)) <= 60;
      await timer.advance(2);
      clock.observe(new Date(serverMs).toUTCString(), sent, timer.now(), header);
      return ok;
    };
    for (let i = 0; i < 50; i++) {
      if (!(await attempt()) && !(await attempt())) refused++;
      await timer.advance(1_000);
    }
    expect(header).toBe(100_000);
    expect(refused).toBeLessThan(5);
  });

  it('follows real time once the replies contradict the stated rate, whatever it is (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 100_000 }),
        fc.integer({ min: -600_000, max: 600_000 }),
        fc.array(
          fc.record({ gap: fc.integer({ min: 1_000, max: 60_000 }), rtt: fc.integer({ min: 0, max: 50 }) }),
          {
            minLength: 6,
            maxLength: 20,
          },
        ),
        (rate, trueOffset, exchanges) => {
          const timer = fakeTimer(T);
          const clock = new ServerClock(timer, silent);
          let local = T;
          exchanges.forEach(({ gap, rtt }, i) => {
            local += gap;
            const stamped = local + Math.floor(rtt / 2) + trueOffset;
            clock.observe(dateAt(stamped), local, local + rtt, rate);
            // From the fifth reply (4 s of replies and more) on, the estimate is the venue's real-time clock.
            if (i >= 4) {
              expect(clock.rate).toBe(1);
              const at = local + rtt;
              expect(Math.abs(clock.offsetMs + at - (at + trueOffset))).toBeLessThanOrEqual(1_000 + rtt);
            }
          });
        },
      ),
    );
  });

  it('keeps following a venue whose Date headers do run at the rate it states (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 100 }),
        fc.integer({ min: -600_000, max: 600_000 }),
        fc.array(
          fc.record({ gap: fc.integer({ min: 1, max: 120_000 }), rtt: fc.integer({ min: 0, max: 50 }) }),
          {
            minLength: 1,
            maxLength: 30,
          },
        ),
        (rate, ahead, exchanges) => {
          const timer = fakeTimer(T);
          const clock = new ServerClock(timer, silent);
          const venueAt = (at: number): number => T + ahead + (at - T) * rate;
          let local = T;
          for (const { gap, rtt } of exchanges) {
            local += gap;
            const stamped = venueAt(local + Math.floor(rtt / 2));
            clock.observe(dateAt(stamped), local, local + rtt, rate);
            expect(clock.rate).toBe(rate);
          }
        },
      ),
    );
  });

  it('follows the stated rate again when a paper venue whose clock was held runs at it again', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    const timer = fakeTimer(T);
    const clock = new ServerClock(timer, logger);
    const reply = (venueMs: number): boolean => clock.observe(dateAt(venueMs), timer.now(), timer.now(), 5);
    // A venue stating 5x whose clock moves at real time for 10 s (its feed behind its pace)...
    reply(T);
    for (let s = 1; s <= 10; s++) {
      await timer.advance(1_000);
      reply(T + s * 1_000);
    }
    expect(clock.rate).toBe(1);
    // ...then at 5x again.
    for (let s = 1; s <= 10; s++) {
      await timer.advance(1_000);
      reply(T + 10_000 + s * 5_000);
    }
    expect(clock.rate).toBe(5);
    await timer.advance(10_000);
    expect(Math.abs(clock.now() - (T + 60_000 + 50_000))).toBeLessThanOrEqual(1_000);
    const messages = lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages.filter((m) => m.includes('move at real time, not at the rate it states'))).toHaveLength(
      1,
    );
    expect(
      messages.filter((m) => m.includes('move at the rate it states (x-keel-clock-rate) again')),
    ).toHaveLength(1);
  });
});
