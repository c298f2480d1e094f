import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { Order, UserEvent } from '../../../../core/model/index.ts';
import { UnknownOrderLookups } from '../../../../core/venue/live/unknown-order-lookups.ts';
import { anOrder } from '../../../kit/order-builders.ts';
import { wallSteppingTimer } from '../../../kit/wall-stepping-timer.ts';

const HOUR_MS = 3_600_000;

/** Lookups of an order the venue never finds, on a timer whose wall clock can step. */
function neverFound() {
  const timer = wallSteppingTimer();
  const emitted: UserEvent[] = [];
  const lookups = new UnknownOrderLookups({
    policy: { minNotFound: 3, spacingMs: 500, capMs: 5_000, giveUpMs: 30_000 },
    timer,
    lookupOrder: () => Promise.resolve<Order | undefined>(undefined),
    lookupAlgoOrder: () => Promise.resolve(undefined),
    emit: (event) => emitted.push(event),
    forgotten: () => undefined,
    logger: pino({ level: 'silent' }),
  });
  const order = anOrder({ clientOrderId: 'c-1', orderId: 'o-1', orderState: 'OPEN' });
  expect(lookups.keepOpen({ kind: 'order', order })).toBe(true);
  return { timer, emitted, lookups };
}

describe('unknown order lookups: the give-up across a wall-clock step, on a port with a monotonic reading', () => {
  it('does not end the order early when the wall clock steps an hour forward', async () => {
    const r = neverFound();
    await r.timer.advance(5_000);
    r.timer.stepWall(HOUR_MS);
    await r.timer.advance(20_000);
    expect(r.emitted).toEqual([]);
    await r.timer.advance(20_000);
    expect(r.emitted).toHaveLength(1);
    r.lookups.stop();
  });

  it('still ends the order after 30 s when the wall clock steps an hour back', async () => {
    const r = neverFound();
    await r.timer.advance(5_000);
    r.timer.stepWall(-HOUR_MS);
    await r.timer.advance(40_000);
    expect(r.emitted).toEqual([
      expect.objectContaining({
        order: expect.objectContaining({ clientOrderId: 'c-1', orderState: 'CANCELLED' }),
      }),
    ]);
    r.lookups.stop();
  });
});
