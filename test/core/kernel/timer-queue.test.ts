import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ScheduledTimer } from '../../../core/kernel/timer-queue.ts';
import { TimerQueue } from '../../../core/kernel/timer-queue.ts';

const timer = (id: number, at: number, owner = 0): ScheduledTimer => ({
  id,
  owner,
  tag: '',
  at,
  every: 0,
  missed: 0,
  seq: 0,
  cancelled: false,
});

describe('timer queue', () => {
  it('property: pops due timers by time, then in the order they were set, skipping cancelled ones', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ at: fc.integer({ min: 0, max: 50 }), cancel: fc.boolean() }), { maxLength: 60 }),
        fc.integer({ min: 0, max: 60 }),
        (specs, upTo) => {
          const queue = new TimerQueue();
          specs.forEach((s, id) => {
            queue.push(timer(id, s.at));
          });
          specs.forEach((s, id) => {
            if (s.cancel) queue.cancel(id, 0);
          });
          const popped: number[] = [];
          for (let t = queue.popDue(upTo); t !== undefined; t = queue.popDue(upTo)) popped.push(t.id);
          const expected = specs
            .map((s, id) => ({ ...s, id }))
            .filter((s) => !s.cancel && s.at <= upTo)
            .sort((a, b) => a.at - b.at || a.id - b.id)
            .map((s) => s.id);
          expect(popped).toEqual(expected);
          const left = specs.filter((s) => !s.cancel && s.at > upTo).map((s) => s.at);
          expect(queue.nextAt).toBe(left.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...left));
        },
      ),
    );
  });

  it('lets only the owner cancel a timer', () => {
    const queue = new TimerQueue();
    queue.push(timer(1, 10, 0));
    expect(queue.cancel(1, 1)).toBe(false);
    expect(queue.cancel(1, 0)).toBe(true);
    expect(queue.size).toBe(0);
  });
});
