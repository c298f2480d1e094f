import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { LastingLookupFailure, UNREADABLE_ORDER_REASON } from '../../../../core/execution/index.ts';
import type { AlgoOrder, Order, UserEvent } from '../../../../core/model/index.ts';
import {
  LOOKED_UP_UNKNOWN_REASON,
  UnknownOrderLookups,
} from '../../../../core/venue/live/unknown-order-lookups.ts';
import { anAlgoOrder } from '../../../kit/algo-order-builders.ts';
import { anOrder } from '../../../kit/order-builders.ts';
import { fakeTimer } from '../../../kit/venue-fake-timer.ts';

const POLICY = { minNotFound: 3, spacingMs: 500, capMs: 5_000, giveUpMs: 30_000 };

/** What the venue answers each lookup: an order or algo order, undefined (401018), or an error. */
type Answer = Order | AlgoOrder | undefined | Error;

function lookupsOn(answers: (n: number) => Answer, policy = POLICY) {
  const timer = fakeTimer(1_000_000);
  const emitted: UserEvent[] = [];
  const warnings: string[] = [];
  const asked: number[] = [];
  const answer = (): Promise<never> | Promise<Answer> => {
    asked.push(timer.now());
    const a = answers(asked.length);
    return a instanceof Error ? Promise.reject(a) : Promise.resolve(a);
  };
  const lookups = new UnknownOrderLookups({
    policy,
    timer,
    lookupOrder: () => answer() as Promise<Order | undefined>,
    lookupAlgoOrder: () => answer() as Promise<AlgoOrder | undefined>,
    emit: (event) => {
      emitted.push(event);
      lookups.settle(event);
    },
    forgotten: (warning) => warnings.push(warning),
    logger: pino({ level: 'silent' }),
  });
  return { timer, lookups, emitted, warnings, asked };
}

/** The reason of an order Keel's lookups gave up on. */
const LOOKED_UP = new RegExp(`^${LOOKED_UP_UNKNOWN_REASON}: \\d+ "not found" over 30 s of lookups$`);

const acked = anOrder({ clientOrderId: 'c-1', orderId: 'o-1', orderState: 'OPEN' });

describe('unknown order lookups', () => {
  it('keeps an order open after one "not found" and reports it as soon as a later lookup finds it', async () => {
    const r = lookupsOn((n) => (n < 2 ? undefined : { ...acked, updateAt: 2_000 }));
    expect(r.lookups.keepOpen({ kind: 'order', order: acked })).toBe(true);
    await r.timer.advance(60_000);
    expect(r.asked).toEqual([1_000_500, 1_001_500]);
    expect(r.emitted).toEqual([
      expect.objectContaining({ kind: 'order', order: { ...acked, updateAt: 2_000 } }),
    ]);
    expect(r.warnings).toEqual([]);
  });

  it('ends an order CANCELLED, synthesized and with the forgotten warning, only after 3 "not found" over 30 s', async () => {
    const r = lookupsOn(() => undefined);
    expect(r.lookups.keepOpen({ kind: 'order', order: acked })).toBe(true);
    await r.timer.advance(29_999);
    expect(r.emitted).toEqual([]);
    await r.timer.advance(10_000);
    expect(r.emitted).toEqual([
      expect.objectContaining({
        order: expect.objectContaining({
          clientOrderId: 'c-1',
          orderState: 'CANCELLED',
          synthesized: true,
          reason: expect.stringMatching(LOOKED_UP),
        }),
      }),
    ]);
    expect(r.emitted[0]?.ts).toBeGreaterThanOrEqual(1_030_000);
    expect(r.warnings).toHaveLength(1);
    // 500 ms, then doubling to 5 s: 0.5, 1.5, 3.5, 7.5, 12.5, 17.5, 22.5, 27.5 s; the last wait is
    // cut short so the lookup that gives the verdict comes when it is due, at 30 s.
    expect(r.asked.map((t) => t - 1_000_000)).toEqual([
      500, 1_500, 3_500, 7_500, 12_500, 17_500, 22_500, 27_500, 30_000,
    ]);
    await r.timer.advance(60_000);
    expect(r.asked).toHaveLength(9);
  });

  it('ends an algo order CANCELLED after the same policy, with no forgotten-order warning', async () => {
    const algo = anAlgoOrder({ clientAlgoOrderId: 'al-1' });
    const r = lookupsOn(() => undefined);
    expect(r.lookups.keepOpen({ kind: 'algoOrder', algoOrder: algo })).toBe(true);
    await r.timer.advance(40_000);
    expect(r.emitted).toEqual([
      expect.objectContaining({
        algoOrder: expect.objectContaining({ clientAlgoOrderId: 'al-1', state: 'CANCELLED' }),
      }),
    ]);
    expect(r.warnings).toEqual([]);
  });

  it('never counts a lookup that failed in a way that may pass, and ends one that failed for good at once', async () => {
    const flaky = lookupsOn(() => new Error('429 too many requests'));
    flaky.lookups.keepOpen({ kind: 'order', order: acked });
    await flaky.timer.advance(120_000);
    expect(flaky.emitted).toEqual([]);
    expect(flaky.asked.length).toBeGreaterThan(3);
    flaky.lookups.stop();

    const unreadable = lookupsOn(() => new LastingLookupFailure('cannot be decoded'));
    unreadable.lookups.keepOpen({ kind: 'order', order: acked });
    await unreadable.timer.advance(1_000);
    expect(unreadable.emitted).toEqual([
      expect.objectContaining({
        order: expect.objectContaining({
          orderState: 'CANCELLED',
          reason: `${UNREADABLE_ORDER_REASON}: cannot be decoded`,
        }),
      }),
    ]);
    expect(unreadable.warnings).toEqual([]);
  });

  it('counts the "not found" of later reconciliations, and lets one end the order once the verdict is due', async () => {
    const r = lookupsOn(() => new Error('unreachable'));
    expect(r.lookups.keepOpen({ kind: 'order', order: acked })).toBe(true);
    await r.timer.advance(15_000);
    expect(r.lookups.keepOpen({ kind: 'order', order: acked })).toBe(true);
    await r.timer.advance(15_000);
    expect(r.lookups.keepOpen({ kind: 'order', order: acked })).toBe(false);
    const asked = r.asked.length;
    await r.timer.advance(60_000);
    expect(r.asked).toHaveLength(asked);
    expect(r.emitted).toEqual([]);
  });

  it('ends an order whose modifies or cancels the venue keeps refusing as unknown 30 s after the first "not found", however often they come', async () => {
    const r = lookupsOn(() => new Error('unreachable'));
    for (let second = 0; second < 29; second++) {
      r.lookups.refused({ kind: 'order', order: acked });
      await r.timer.advance(1_000);
    }
    expect(r.emitted).toEqual([]);
    await r.timer.advance(1_000);
    r.lookups.refused({ kind: 'order', order: acked });
    expect(r.emitted).toEqual([
      expect.objectContaining({
        order: expect.objectContaining({
          clientOrderId: 'c-1',
          orderState: 'CANCELLED',
          synthesized: true,
          reason: `${LOOKED_UP_UNKNOWN_REASON}: 30 "not found" over 30 s of lookups`,
        }),
      }),
    ]);
    expect(r.emitted[0]?.ts).toBe(1_030_000);
    expect(r.warnings).toHaveLength(1);
  });

  it('tells what waits on an order looked up once it is no longer looked up', async () => {
    const r = lookupsOn(() => undefined);
    expect(r.lookups.lookupOf('c-1')).toBeUndefined();
    r.lookups.refused({ kind: 'order', order: acked });
    let ended = false;
    void r.lookups.lookupOf('c-1')?.then(() => {
      ended = r.emitted.length === 1;
    });
    await r.timer.advance(29_000);
    expect(ended).toBe(false);
    await r.timer.advance(1_000);
    expect(ended).toBe(true);
    expect(r.lookups.lookupOf('c-1')).toBeUndefined();
  });

  it('stops looking an order up once an update of it arrives from elsewhere, or the client stops', async () => {
    const r = lookupsOn(() => undefined);
    r.lookups.keepOpen({ kind: 'order', order: acked });
    r.lookups.keepOpen({ kind: 'algoOrder', algoOrder: anAlgoOrder() });
    await r.timer.advance(600);
    expect(r.asked).toHaveLength(2);
    r.lookups.settle({ kind: 'order', ts: 0, recvTs: 0, order: { ...acked, orderState: 'FILLED' } });
    await r.timer.advance(1_000);
    expect(r.asked).toHaveLength(3);
    r.lookups.stop();
    await r.timer.advance(60_000);
    expect(r.asked).toHaveLength(3);
    expect(r.emitted).toEqual([]);
    expect(r.lookups.keepOpen({ kind: 'order', order: acked })).toBe(false);
  });
});
