import { describe, expect, it } from 'vitest';
import { EmptiedSignal } from '../../../config/compose/emptied-signal.ts';

describe('the signal of something held emptying', () => {
  it('gives one promise until it settles, then a new one for the next wait', async () => {
    const signal = new EmptiedSignal();
    const first = signal.next();
    expect(signal.next()).toBe(first);
    let settled = false;
    void first.then(() => {
      settled = true;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    signal.emptied();
    await first;
    expect(settled).toBe(true);
    expect(signal.next()).not.toBe(first);
  });

  it('settles nothing when emptied with no one waiting', () => {
    const signal = new EmptiedSignal();
    signal.emptied();
    expect(signal.next()).toBeInstanceOf(Promise);
  });
});
