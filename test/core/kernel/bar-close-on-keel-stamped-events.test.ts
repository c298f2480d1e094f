import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy, Kernel, type Scheduler } from '../../../core/kernel/index.ts';
import type { BarEvent, MarketEvent, UserEvent } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { anOrderUpdate, aTrade, BTC } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';
import { aRecordingPort } from '../../kit/recording-execution-port.ts';

/** A scheduler on a wall clock the test does not move (a live session's; no timer is set). */
const wallTime: Scheduler = {
  clock: { now: () => 0 },
  followsEventTime: false,
  advanceTo: () => {},
  wakeAt: () => {},
  cancelWake: () => {},
};

/**
 * A kernel of a venue session on wall time whose strategy collects BTC's 1m bars built from
 * trades; `keelStampsOnVenueClock` as a paper session sets it.
 */
function aSessionKernel(keelStampsOnVenueClock?: boolean) {
  const market = new Subject<MarketEvent>();
  const user = new Subject<UserEvent>();
  const bars: BarEvent[] = [];
  const kernel = new Kernel({
    instruments: [anInstrument(BTC)],
    market: market.asObservable(),
    user: user.asObservable(),
    execution: aRecordingPort(),
    gate: new RiskGate(),
    scheduler: wallTime,
    strategies: [
      {
        id: 'bars',
        strategy: defineStrategy({
          name: 'bar-collector',
          params: z.object({}),
          onStart: (ctx) => ctx.watchBars(BTC, '1m'),
          onBar: (_ctx, bar) => {
            bars.push(bar);
          },
        }),
      },
    ],
    ...(keelStampsOnVenueClock === undefined ? {} : { keelStampsOnVenueClock }),
  });
  void kernel.start();
  return { kernel, market, user, bars };
}

/** An order the adapter reports REJECTED itself (the venue refused the command), stamped on the session's clock. */
function rejectedByKeelAt(ts: number): UserEvent {
  const order = anOrder({ sym: BTC, orderState: 'REJECTED', clientOrderId: 'r1', orderId: '', updateAt: ts });
  return { ...anOrderUpdate(order, ts), stampedByKeel: true };
}

const ohlcv = (b: BarEvent) => [b.openTime, b.open, b.high, b.low, b.close, b.volume];

describe('bars built from trades in a live session, when Keel stamps an event with its estimate of the venue clock', () => {
  it('closes no bar on an order the adapter reported REJECTED 400 ms ahead of the venue: the trade the venue stamped before the bar’s end still counts', () => {
    const s = aSessionKernel();
    s.market.next(aTrade(59_000, 100));
    s.user.next(rejectedByKeelAt(60_400));
    // The venue's clock was at 60 000 - 200 when Keel's estimate read 60 400.
    s.market.next({ ...aTrade(59_800, 105), recvTs: 60_450 });
    expect(s.bars).toEqual([]);
    s.market.next(aTrade(60_100, 101));
    expect(s.bars.map(ohlcv)).toEqual([[0, 100, 105, 100, 105, 2]]);
    expect(s.kernel.lateBarInputs()).toEqual([]);
  });

  it('still closes a bar on a User Data event the venue stamped past its end, as in a backtest', () => {
    const s = aSessionKernel();
    s.market.next(aTrade(59_000, 100));
    s.user.next(anOrderUpdate(anOrder({ sym: BTC, orderState: 'REJECTED', updateAt: 60_400 })));
    expect(s.bars.map(ohlcv)).toEqual([[0, 100, 100, 100, 100, 1]]);
  });

  it('still closes a bar on what Keel stamped in a paper session, whose adapter reads the paper venue’s own clock', () => {
    const s = aSessionKernel(true);
    s.market.next(aTrade(59_000, 100));
    s.user.next(rejectedByKeelAt(60_400));
    expect(s.bars.map(ohlcv)).toEqual([[0, 100, 100, 100, 100, 1]]);
  });
});
