import { afterEach, describe, expect, it, vi } from 'vitest';
import { StopDeadline } from '../../../config/compose/stop-deadline.ts';

const never = new Promise<void>(() => {});

describe("a stopping session's deadline", () => {
  it('waits for a step that finishes in time, and has nothing to say then', async () => {
    const deadline = new StopDeadline(60_000);
    expect(await deadline.within('a quick step', Promise.resolve())).toBe(true);
    expect(await deadline.within('a step with nothing to do', undefined)).toBe(true);
    expect(deadline.left()).toBeGreaterThan(0);
    expect(deadline.warning()).toBeUndefined();
  });

  it('stops waiting for a step at the deadline and names it, and each later one, in its warning', async () => {
    const deadline = new StopDeadline(20);
    expect(await deadline.within('reading the legs', never)).toBe(false);
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.left()).toBe(0);
    expect(await deadline.within('looking up the algo orders', Promise.resolve())).toBe(false);
    expect(deadline.warning()).toBe(
      'shutdown.timeoutMs (20 ms) ran out before reading the legs, looking up the algo orders finished: the venue did not answer in time, and the result holds what was known by then',
    );
    expect((deadline.signal.reason as Error).message).toBe(
      "the stop's shutdown.timeoutMs of 20 ms ran out first",
    );
  });

  it('passes on what a step threw in time', async () => {
    const deadline = new StopDeadline(60_000);
    await expect(deadline.within('a failing step', Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    );
  });

  it('is not reached at once when longer than a Node timer can wait', async () => {
    const deadline = new StopDeadline(3_000_000_000);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(deadline.signal.aborted).toBe(false);
  });

  it('counts its time on the clock it is given', () => {
    let now = 1_000;
    const deadline = new StopDeadline(500, () => now);
    now = 1_200;
    expect(deadline.left()).toBe(300);
    expect(deadline.left(1_000)).toBe(1_300);
    now = 2_000;
    expect(deadline.left()).toBe(0);
    expect(deadline.left(1_000)).toBe(1_000);
    expect(new StopDeadline(3_000_000_000, () => now).left(1_000)).toBe(2 ** 31 - 1);
  });
});

describe("a stopping session's deadline when the wall clock steps", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('leaves what real time left: a step back does not lengthen it, a step forward does not end it', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const deadline = new StopDeadline(60_000);
    vi.advanceTimersByTime(10_000);
    vi.setSystemTime(Date.now() - 3_600_000);
    expect(deadline.left()).toBe(50_000);
    vi.setSystemTime(Date.now() + 7_200_000);
    expect(deadline.left()).toBe(50_000);
  });
});
