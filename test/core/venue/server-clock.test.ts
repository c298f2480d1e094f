import fc from 'fast-check';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { clockRateOf, ServerClock } from '../../../core/venue/index.ts';
import { fakeTimer } from '../../kit/venue-fake-timer.ts';

const T = 1_700_000_000_000;
const silent = pino({ level: 'silent' });

/** The `Date` header a server whose clock reads `serverMs` sends. */
const dateAt = (serverMs: number): string => new Date(serverMs).toUTCString();

/** A clock at local time T with its offset first set by a reply proving it. */
function clockWithOffset(offsetMs: number): ServerClock {
  const clock = new ServerClock(fakeTimer(T), silent);
  clock.observe(dateAt(T + offsetMs), T, T);
  return clock;
}

/** One exchange: sent at local `sent`, stamped by the server `stampedAfter` ms later, received `tail` ms after that. */
const exchange = fc.record({
  sent: fc.integer({ min: T - 86_400_000, max: T + 86_400_000 }),
  stampedAfter: fc.integer({ min: 0, max: 5_000 }),
  tail: fc.integer({ min: 0, max: 5_000 }),
});

describe('ServerClock', () => {
  it('reads the local clock until a reply proves it wrong', () => {
    const clock = new ServerClock(fakeTimer(T + 1_999), silent);
    expect(clock.offsetMs).toBe(0);
    expect(clock.nowSeconds()).toBe((T + 1_999 - ((T + 1_999) % 1000)) / 1000);
  });

  it('moves to the middle of what a reply proves: 3 min ahead, 200 ms round trip', () => {
    const clock = new ServerClock(fakeTimer(T), silent);
    // Sent at T, received at T + 200; the server said T + 180 s (to the second).
    expect(clock.observe(dateAt(T + 180_000), T, T + 200)).toBe(true);
    // The offset lies within [180 000 - 200, 181 000]: its middle is 180 400.
    expect(clock.offsetMs).toBe(180_400);
    expect(clock.now()).toBe(T + 180_400);
    expect(clock.nowSeconds()).toBe((T + 180_000) / 1000);
  });

  it('keeps an estimate a later reply agrees with, and ignores a missing or unreadable Date', () => {
    const clock = clockWithOffset(-120_000);
    const kept = clock.offsetMs;
    expect(clock.observe(dateAt(T + 5_000 - 120_000), T + 5_000, T + 5_050)).toBe(false);
    expect(clock.observe(undefined, T, T)).toBe(false);
    expect(clock.observe('not a date', T, T)).toBe(false);
    expect(clock.offsetMs).toBe(kept);
  });

  it('warns when it moves by a second or more, naming the offset', () => {
    const lines: string[] = [];
    const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
    const clock = new ServerClock(fakeTimer(T), logger);
    clock.observe(dateAt(T + 180_000), T, T);
    const warned = JSON.parse(lines[0] ?? '{}') as { level: number; offsetMs: number; msg: string };
    expect(warned.level).toBe(40);
    expect(warned.offsetMs).toBe(180_500);
    expect(warned.msg).toContain("the venue's clock differs");
  });

  it('settles on what the replies prove together instead of following each reply’s jitter', () => {
    const lines: string[] = [];
    const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
    const clock = new ServerClock(fakeTimer(T), logger);
    let seed = 7;
    const next = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    let moves = 0;
    for (let i = 0; i < 1_000; i++) {
      const sent = T + i * 1_000 + Math.floor(next() * 1_000);
      const stamped = sent + 5 + Math.floor(next() * 10);
      if (clock.observe(dateAt(stamped + 180_000), sent, stamped + 5 + Math.floor(next() * 10))) moves++;
      expect(Math.abs(clock.offsetMs - 180_000)).toBeLessThan(1_030);
    }
    expect(moves).toBeLessThan(15);
    expect(lines.filter((line) => line.includes('"level":40'))).toHaveLength(1);
  });

  it('starts afresh from a reply that contradicts the earlier ones: the local clock was stepped', () => {
    const clock = clockWithOffset(180_000);
    expect(clock.observe(dateAt(T + 10_000 - 60_000), T + 10_000, T + 10_000)).toBe(true);
    expect(clock.offsetMs).toBe(-59_500);
  });

  it('never moves off a right local clock (property)', () => {
    fc.assert(
      fc.property(fc.array(exchange, { maxLength: 20 }), (exchanges) => {
        const clock = new ServerClock(fakeTimer(T), silent);
        for (const { sent, stampedAfter, tail } of exchanges) {
          const stamped = sent + stampedAfter;
          expect(clock.observe(dateAt(stamped), sent, stamped + tail)).toBe(false);
        }
        expect(clock.offsetMs).toBe(0);
      }),
    );
  });

  it('ends within what the last reply proves, whatever the true offset (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -3_600_000, max: 3_600_000 }),
        fc.array(exchange, { minLength: 1, maxLength: 20 }),
        (trueOffset, exchanges) => {
          const clock = new ServerClock(fakeTimer(T), silent);
          for (const { sent, stampedAfter, tail } of exchanges) {
            const stamped = sent + stampedAfter;
            clock.observe(dateAt(stamped + trueOffset), sent, stamped + tail);
            // Both lie within an interval 1 s (the Date's grain) plus the round trip wide.
            const width = 1_000 + stampedAfter + tail;
            expect(Math.abs(clock.offsetMs - trueOffset)).toBeLessThanOrEqual(width);
          }
        },
      ),
    );
  });

  it('re-syncs to within what the latest reply proves however the venue clock steps back or forward between replies (property)', async () => {
    const stepThenExchange = fc.record({
      stepMs: fc.oneof(
        fc.integer({ min: -3_000, max: 3_000 }),
        fc.integer({ min: -3_600_000, max: 3_600_000 }),
      ),
      quietMs: fc.integer({ min: 0, max: 60_000 }),
      stampedAfter: fc.integer({ min: 0, max: 2_000 }),
      tail: fc.integer({ min: 0, max: 2_000 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(stepThenExchange, { minLength: 1, maxLength: 30 }), async (replies) => {
        const timer = fakeTimer(T);
        const clock = new ServerClock(timer, silent);
        let trueOffset = 0;
        for (const { stepMs, quietMs, stampedAfter, tail } of replies) {
          trueOffset += stepMs;
          const before = clock.offsetMs;
          await timer.advance(quietMs);
          // Between replies the estimate runs with the local clock: no step of its own.
          expect(clock.offsetMs).toBe(before);
          const sent = timer.now();
          clock.observe(dateAt(sent + stampedAfter + trueOffset), sent, sent + stampedAfter + tail);
          expect(Number.isInteger(clock.offsetMs)).toBe(true);
          expect(Math.abs(clock.offsetMs - trueOffset)).toBeLessThanOrEqual(1_000 + stampedAfter + tail);
        }
      }),
    );
  });

  it('keeps pace between replies with a venue stating its clock runs N times real time', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 100 }),
        fc.integer({ min: 0, max: 600_000 }),
        fc.integer({ min: 1_000, max: 3_600_000 }),
        (rate, ahead, quietMs) => {
          const timer = fakeTimer(T);
          const clock = new ServerClock(timer, silent);
          // The venue's clock: `ahead` ms ahead of T at T, running `rate` times as fast.
          const venueAt = (local: number) => T + ahead + (local - T) * rate;
          clock.observe(dateAt(venueAt(T)), T, T, rate);
          timer.advance(quietMs);
          // One reply's grain (1 s of the venue's clock) is all it may be off, however long the quiet.
          expect(Math.abs(clock.now() - venueAt(timer.now()))).toBeLessThanOrEqual(1_000);
        },
      ),
    );
  });

  it('reads a clock rate header as 1 unless it is a positive number up to 100 000', () => {
    expect(clockRateOf('5')).toBe(5);
    expect(clockRateOf('0.5')).toBe(0.5);
    for (const bad of [undefined, '', 'fast', '0', '-2', 'Infinity', '1e9']) expect(clockRateOf(bad)).toBe(1);
  });
});
