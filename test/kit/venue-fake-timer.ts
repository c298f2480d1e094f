import type { TimerPort } from '../../core/venue/index.ts';

/** A fake timer port: time moves only when the test calls `advance`. */
export interface FakeTimer extends TimerPort {
  /** Moves time forward, firing due timers in order. @param ms - how far */
  advance(ms: number): Promise<void>;
  /** Timers not yet fired. */
  pending(): number;
}

/**
 * Builds a fake timer starting at `start` ms.
 * @param start - initial epoch ms
 * @returns the fake timer
 */
export function fakeTimer(start = 1_700_000_000_000): FakeTimer {
  let now = start;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => now,
    setTimer(fn, ms) {
      const id = seq++;
      timers.set(id, { at: now + Math.max(0, ms), fn });
      return () => timers.delete(id);
    },
    async advance(ms) {
      const end = now + ms;
      for (;;) {
        let nextId = -1;
        let nextAt = Number.POSITIVE_INFINITY;
        for (const [id, t] of timers)
          if (t.at < nextAt || (t.at === nextAt && id < nextId)) [nextId, nextAt] = [id, t.at];
        if (nextId === -1 || nextAt > end) break;
        const t = timers.get(nextId) as { fn: () => void };
        timers.delete(nextId);
        now = nextAt;
        t.fn();
        await new Promise((resolve) => setImmediate(resolve));
      }
      now = end;
      await new Promise((resolve) => setImmediate(resolve));
    },
    pending: () => timers.size,
  };
}
