import { pino } from 'pino';
import { Subject } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { LegReadHold } from '../../../config/compose/leg-read-hold.ts';

/** A read of legs the test ends by hand. */
function aRead() {
  let end: () => void = () => {};
  let fail: (error: Error) => void = () => {};
  const promise = new Promise<void>((resolve, reject) => {
    end = resolve;
    fail = reject;
  });
  promise.catch(() => {});
  return { promise, end, fail };
}

function rig(boundMs = 60_000) {
  let read: Promise<void> | undefined;
  const logger = pino({ level: 'silent' });
  const warn = vi.spyOn(logger, 'warn');
  const hold = new LegReadHold(() => read, logger, boundMs);
  const market = new Subject<string>();
  const user = new Subject<string>();
  const seen: string[] = [];
  hold.of(market).subscribe((e) => seen.push(e));
  hold.of(user).subscribe((e) => seen.push(e));
  return { hold, market, user, seen, warn, reading: (r: Promise<void> | undefined) => (read = r) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('events held while the legs of a fill are read', () => {
  it('passes events on at once while nothing is read', () => {
    const { market, user, seen, hold } = rig();
    market.next('bar');
    user.next('fill');
    expect(seen).toEqual(['bar', 'fill']);
    expect(hold.idle()).toBeUndefined();
  });

  it('holds every stream in arrival order until the read ends, and the ack waits for their delivery', async () => {
    const { market, user, seen, hold, reading } = rig();
    const read = aRead();
    reading(read.promise);
    market.next('bar');
    user.next('position');
    market.next('mark');
    expect(seen).toEqual([]);
    const idle = hold.idle();
    expect(idle).toBeDefined();
    reading(undefined);
    read.end();
    await idle;
    expect(seen).toEqual(['bar', 'position', 'mark']);
    expect(hold.idle()).toBeUndefined();
  });

  it('holds the rest again when a released event starts another read, and releases on a failed read', async () => {
    const { market, user, seen, hold, reading } = rig();
    const first = aRead();
    const second = aRead();
    // The journal's part: the fill it is given asks for its legs.
    hold.of(user).subscribe((e) => {
      if (e === 'fill') reading(second.promise);
    });
    reading(first.promise);
    user.next('fill');
    market.next('bar');
    reading(undefined);
    first.end();
    await settle();
    expect(seen).toEqual(['fill']);
    reading(undefined);
    second.fail(new Error('REST 500'));
    await settle();
    expect(seen).toEqual(['fill', 'bar']);
  });

  it('releases what it holds with a warning when a read outlasts the bound, and holds nothing more for it', async () => {
    const { market, seen, warn, reading } = rig(20);
    reading(aRead().promise);
    market.next('bar');
    expect(seen).toEqual([]);
    await vi.waitFor(() => expect(seen).toEqual(['bar']));
    expect(warn).toHaveBeenCalledOnce();
    market.next('next bar');
    expect(seen).toEqual(['bar', 'next bar']);
  });
});
