import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../../../core/venue/index.ts';
import { ClosableSleeps } from '../../../../core/venue/rest/closable-sleeps.ts';
import { EndpointHolds } from '../../../../core/venue/rest/endpoint-holds.ts';
import { wallSteppingTimer } from '../../../kit/wall-stepping-timer.ts';

const HOUR_MS = 3_600_000;

describe('rate limiter across a wall-clock step', () => {
  it('keeps a full window closed when the wall clock steps an hour forward', async () => {
    const timer = wallSteppingTimer();
    const limiter = new RateLimiter({ limit: 2, windowMs: 10_000 }, timer);
    expect([limiter.tryAcquire(), limiter.tryAcquire()]).toEqual([true, true]);
    timer.stepWall(HOUR_MS);
    expect(limiter.tryAcquire()).toBe(false);
    await timer.advance(10_000);
    expect(limiter.tryAcquire()).toBe(true);
  });

  it('opens the window on time when the wall clock steps an hour back', async () => {
    const timer = wallSteppingTimer();
    const limiter = new RateLimiter({ limit: 1, windowMs: 10_000 }, timer);
    await limiter.acquire();
    let granted = false;
    void limiter.acquire().then(() => {
      granted = true;
    });
    await timer.advance(5_000);
    timer.stepWall(-HOUR_MS);
    await timer.advance(5_000);
    expect(granted).toBe(true);
    await timer.advance(0);
    expect(limiter.tryAcquire()).toBe(false);
    await timer.advance(10_000);
    expect(limiter.tryAcquire()).toBe(true);
  });
});

describe("endpoint holds across a wall-clock step (a 429's Retry-After)", () => {
  it('still holds the endpoint when the wall clock steps an hour forward', async () => {
    const timer = wallSteppingTimer();
    const holds = new EndpointHolds(timer, new ClosableSleeps(timer));
    holds.hold('/api/v1/trading/order', 5_000);
    timer.stepWall(HOUR_MS);
    expect(holds.isHeld('/api/v1/trading/order')).toBe(true);
    await timer.advance(5_000);
    expect(holds.isHeld('/api/v1/trading/order')).toBe(false);
  });

  it('ends the hold on time when the wall clock steps an hour back', async () => {
    const timer = wallSteppingTimer();
    const holds = new EndpointHolds(timer, new ClosableSleeps(timer));
    holds.hold('/api/v1/trading/order', 5_000);
    let released = false;
    void holds.wait('/api/v1/trading/order').then(() => {
      released = true;
    });
    await timer.advance(1_000);
    timer.stepWall(-HOUR_MS);
    await timer.advance(4_000);
    expect(released).toBe(true);
  });
});
