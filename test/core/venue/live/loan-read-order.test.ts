import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LoanReadOrder } from '../../../../core/venue/live/loan-read-order.ts';

/** Reads sent, and replies arriving in any order: `send`, or the arrival of one pending read (its index mod the pending count). */
const steps = fc.array(fc.oneof(fc.constant('send' as const), fc.nat({ max: 50 })), { maxLength: 60 });

describe('LoanReadOrder', () => {
  it('applies a reply only when it is the latest sent of all replies arrived so far, so the listing applied last is never older than one applied before', () => {
    fc.assert(
      fc.property(steps, (script) => {
        const order = new LoanReadOrder();
        const pending: number[] = [];
        const arrived: number[] = [];
        const applied: number[] = [];
        for (const step of script) {
          if (step === 'send') {
            pending.push(order.send());
            continue;
          }
          if (pending.length === 0) continue;
          const [read] = pending.splice(step % pending.length, 1) as [number];
          arrived.push(read);
          if (order.admit(read)) applied.push(read);
          // The listing in force is that of the latest read sent whose reply arrived.
          expect(applied.at(-1)).toBe(Math.max(...arrived));
        }
        expect(applied).toEqual([...applied].sort((a, b) => a - b));
        expect(new Set(applied).size).toBe(applied.length);
      }),
    );
  });

  it('numbers reads in the order they are sent and admits each once', () => {
    const order = new LoanReadOrder();
    const first = order.send();
    const second = order.send();
    expect(second).toBeGreaterThan(first);
    expect(order.admit(first)).toBe(true);
    expect(order.admit(first)).toBe(false);
    expect(order.admit(second)).toBe(true);
  });
});
