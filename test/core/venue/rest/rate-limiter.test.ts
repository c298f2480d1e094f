import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../../../core/venue/index.ts';
import { fakeTimer } from '../../../kit/venue-fake-timer.ts';

describe('rate limiter', () => {
  it('queues a burst of 70 history-order requests at 30 per 10 s instead of failing any', async () => {
    const timer = fakeTimer(0);
    const limiter = new RateLimiter({ limit: 30, windowMs: 10_000 }, timer);
    const grantedAt: number[] = [];
    const all = Array.from({ length: 70 }, () => limiter.acquire().then(() => grantedAt.push(timer.now())));
    await timer.advance(0);
    expect(grantedAt).toHaveLength(30);
    expect(limiter.queued).toBe(40);
    await timer.advance(9_999);
    expect(grantedAt).toHaveLength(30);
    await timer.advance(1);
    expect(grantedAt).toHaveLength(60);
    await timer.advance(10_000);
    await Promise.all(all);
    expect(grantedAt).toHaveLength(70);
    expect(grantedAt.filter((t) => t === 0)).toHaveLength(30);
    expect(grantedAt.filter((t) => t === 10_000)).toHaveLength(30);
    expect(grantedAt.filter((t) => t === 20_000)).toHaveLength(10);
  });

  it('never lets more than the limit through in any sliding window', async () => {
    const timer = fakeTimer(0);
    const limiter = new RateLimiter({ limit: 100, windowMs: 60_000 }, timer);
    const grantedAt: number[] = [];
    const flush = () => new Promise((resolve) => setImmediate(resolve));
    for (let i = 0; i < 350; i++) {
      void limiter.acquire().then(() => grantedAt.push(timer.now()));
      await flush();
      if (i % 7 === 0) await timer.advance(1_000);
    }
    await timer.advance(300_000);
    expect(grantedAt).toHaveLength(350);
    for (const t of grantedAt) {
      expect(grantedAt.filter((u) => u >= t && u < t + 60_000).length).toBeLessThanOrEqual(100);
    }
  });

  it('keeps first-come first-served order', async () => {
    const timer = fakeTimer(0);
    const limiter = new RateLimiter({ limit: 1, windowMs: 1_000 }, timer);
    const order: number[] = [];
    const all = [0, 1, 2, 3].map((i) => limiter.acquire().then(() => order.push(i)));
    await timer.advance(5_000);
    await Promise.all(all);
    expect(order).toEqual([0, 1, 2, 3]);
  });

  it('grants synchronously with tryAcquire while there is room and nobody waits', async () => {
    const timer = fakeTimer(0);
    const limiter = new RateLimiter({ limit: 2, windowMs: 1_000 }, timer);
    expect([limiter.tryAcquire(), limiter.tryAcquire(), limiter.tryAcquire()]).toEqual([true, true, false]);
    const queued = limiter.acquire();
    expect(limiter.tryAcquire()).toBe(false);
    await timer.advance(1_000);
    await queued;
    expect([limiter.tryAcquire(), limiter.tryAcquire()]).toEqual([true, false]);
  });

  it('refuses every request still waiting when closed, with the reason given, and leaves no timer', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 60_000 }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 120_000 }),
        async (limit, windowMs, requests, before) => {
          const timer = fakeTimer(0);
          const limiter = new RateLimiter({ limit, windowMs }, timer);
          const closed = new Error('client closed');
          const outcomes: unknown[] = [];
          const all = Array.from({ length: requests }, () =>
            limiter.acquire().then(
              () => outcomes.push('granted'),
              (error: unknown) => outcomes.push(error),
            ),
          );
          await timer.advance(before);
          const granted = outcomes.length;
          limiter.close(closed);
          await Promise.all(all);
          expect(outcomes.slice(granted)).toEqual(Array(requests - granted).fill(closed));
          expect(limiter.queued).toBe(0);
          expect(timer.pending()).toBe(0);
          // Closed, it refuses at once, on no timer, and grants nothing synchronously either.
          expect(await limiter.acquire().catch((error: unknown) => error)).toBe(closed);
          expect(limiter.tryAcquire()).toBe(false);
          expect(timer.pending()).toBe(0);
        },
      ),
      { numRuns: 50 },
    );
  });
});
