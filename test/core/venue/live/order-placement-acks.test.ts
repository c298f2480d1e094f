import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { LastingLookupFailure } from '../../../../core/execution/index.ts';
import type { Order, PlaceOrderIntent } from '../../../../core/model/index.ts';
import { VenueError, VenueTimeoutError } from '../../../../core/venue/errors.ts';
import { OrderPlacement, type OrderPlacementOptions } from '../../../../core/venue/live/order-placement.ts';
import type { PrivateWsClient } from '../../../../core/venue/ws/private-ws-client.ts';
import { aLimitOrder } from '../../../kit/intent-builders.ts';
import { anOrder } from '../../../kit/order-builders.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const intent: PlaceOrderIntent = aLimitOrder({ ref: 'r1', sym: SYM });

/** A manual timer: waits fire only when the test says so. */
function aManualTimer() {
  let now = 0;
  const waits: { at: number; fire: () => void; live: boolean }[] = [];
  return {
    port: {
      now: () => now,
      setTimer(fire: () => void, ms: number) {
        const wait = { at: now + ms, fire, live: true };
        waits.push(wait);
        return () => {
          wait.live = false;
        };
      },
    },
    live: () => waits.filter((w) => w.live).length,
    advance(ms: number) {
      now += ms;
      for (const wait of waits) {
        if (wait.live && wait.at <= now) {
          wait.live = false;
          wait.fire();
        }
      }
    },
  };
}

/** Lookups the venue refuses for reasons that say nothing about the order: rate limit, nonce, system error, no permission, bad parameters. */
const OTHER_REFUSALS: readonly VenueError[] = [
  [429, 429],
  [7000, 200],
  [40000, 200],
  [50001, 200],
  [2003, 200],
  [400001, 400],
].map(
  ([code, httpStatus]) =>
    new VenueError({
      code: code as number,
      message: 'refused',
      method: 'GET',
      path: '/api/v1/trading/order',
      httpStatus: httpStatus as number,
    }),
);

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

function aPlacement(
  request: () => Promise<unknown>,
  lookupOrder: OrderPlacementOptions['lookupOrder'],
  timer: ReturnType<typeof aManualTimer>,
) {
  const emitted: Order[] = [];
  const placement = new OrderPlacement({
    ws: { request } as unknown as PrivateWsClient,
    brokerClientId: '',
    newReference: () => 'unused',
    timer: timer.port as OrderPlacementOptions['timer'],
    logger: pino({ level: 'silent' }),
    lookups: { spacingMs: 500, capMs: 5_000, minNotFound: 3, giveUpMs: 30_000 },
    lookupOrder,
    emitOrder: (order) => emitted.push(order),
  });
  return { placement, emitted };
}

describe('order placement: acks', () => {
  it('looks an order up when its ack cannot be read, instead of failing with an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const timer = aManualTimer();
      const lookups: string[] = [];
      const booked = anOrder({ clientOrderId: 'r1', orderId: 'o-1', orderState: 'OPEN', sym: SYM });
      const { placement, emitted } = aPlacement(
        () => Promise.resolve({ event: 'PLACE_ORDER_ACK', data: { nonsense: 1 } }),
        (_sym, ref) => {
          lookups.push(ref);
          return Promise.resolve(booked);
        },
        timer,
      );
      placement.place(intent);
      await settle();
      expect(unhandled).toEqual([]);
      expect(lookups).toEqual(['r1']);
      expect(emitted.map((o) => o.orderState)).toEqual(['OPEN']);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('arms no further wait once stopped, even when a lookup under way then fails', async () => {
    const timer = aManualTimer();
    let failLookup: (error: unknown) => void = () => undefined;
    const { placement } = aPlacement(
      () => Promise.reject(new VenueTimeoutError('place_order', 300)),
      () =>
        new Promise<Order | undefined>((_resolve, reject) => {
          failLookup = reject;
        }),
      timer,
    );
    placement.place(intent);
    await settle();
    placement.stop();
    failLookup(new Error('socket closed'));
    await settle();
    expect(timer.live()).toBe(0);
  });

  it('keeps an unacked order pending while the venue refuses its lookups for another reason, and reports it once found', async () => {
    const timer = aManualTimer();
    let lookups = 0;
    const booked = anOrder({ clientOrderId: 'r1', orderId: 'o-1', orderState: 'OPEN', sym: SYM });
    const { placement, emitted } = aPlacement(
      () => Promise.reject(new VenueTimeoutError('place_order', 300)),
      () => {
        lookups++;
        const refusal = OTHER_REFUSALS[lookups % OTHER_REFUSALS.length] as VenueError;
        // Refused past the give-up time: none of these says the venue has no such order.
        return lookups <= 10 ? Promise.reject(refusal) : Promise.resolve(booked);
      },
      timer,
    );
    placement.place(intent);
    for (let step = 0; step < 20; step++) {
      await settle();
      timer.advance(5_000);
    }
    await settle();
    expect(lookups).toBe(11);
    expect(emitted.map((o) => o.orderState)).toEqual(['OPEN']);
    expect(timer.live()).toBe(0);
  });

  it('counts only "order not found" (401018, an undefined lookup) toward the verdict, not lookups refused for another reason', async () => {
    const timer = aManualTimer();
    let lookups = 0;
    let notFound = 0;
    const { placement, emitted } = aPlacement(
      () => Promise.reject(new VenueTimeoutError('place_order', 300)),
      () => {
        lookups++;
        if (lookups <= 10) return Promise.reject(OTHER_REFUSALS[0] as VenueError);
        notFound++;
        return Promise.resolve(undefined);
      },
      timer,
    );
    placement.place(intent);
    for (let step = 0; step < 20; step++) {
      await settle();
      timer.advance(5_000);
    }
    await settle();
    expect(emitted.map((o) => [o.orderState, o.synthesized])).toEqual([['REJECTED', true]]);
    expect(notFound).toBe(3);
    expect(timer.live()).toBe(0);
  });
  it('ends an unacked order whose lookup failed for good REJECTED once, with the reason, and looks it up no more', async () => {
    const timer = aManualTimer();
    let lookups = 0;
    const { placement, emitted } = aPlacement(
      () => Promise.reject(new VenueTimeoutError('place_order', 300)),
      () => {
        lookups++;
        return Promise.reject(new LastingLookupFailure('the lookup of order r1 failed for good: 400001'));
      },
      timer,
    );
    placement.place(intent);
    for (let step = 0; step < 20; step++) {
      await settle();
      timer.advance(5_000);
    }
    placement.resolveAllUnacked();
    await settle();
    expect(lookups).toBe(1);
    expect(emitted).toHaveLength(1);
    expect(emitted[0]).toMatchObject({
      clientOrderId: 'r1',
      orderState: 'REJECTED',
      synthesized: true,
      reason: expect.stringContaining('no ack, and the lookup of order r1 failed for good: 400001'),
    });
    expect(timer.live()).toBe(0);
  });
});
