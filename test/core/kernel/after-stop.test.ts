import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy, Kernel, virtualScheduler } from '../../../core/kernel/index.ts';
import type { MarketEvent } from '../../../core/model/index.ts';
import { COMMAND_OUTCOME_UNKNOWN } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aKernelRig, aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { anOrderUpdate, aPositionUpdate, aQuote, BTC } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';
import { aRecordingPort } from '../../kit/recording-execution-port.ts';

const flushPromises = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

/** A strategy that rests a bid at its first quote, cancels it in onStop, and logs every hook. */
function aLoggingBidder(seen: string[]) {
  return defineStrategy({
    name: 'logging-bidder',
    params: z.object({}),
    onStart: () => {
      seen.push('onStart');
    },
    onQuote: (ctx, quote) => {
      seen.push(`onQuote ${quote.ts}`);
      return quote.ts === 1_000 ? ctx.order.limit({ sym: BTC, side: 'BUY', qty: 1, price: 100 }) : undefined;
    },
    onOrder: (_ctx, order) => {
      seen.push(`onOrder ${order.orderState}`);
    },
    onFill: () => {
      seen.push('onFill');
    },
    onDenied: (_ctx, denial) => {
      seen.push(`onDenied ${denial.check}`);
    },
    onStop: (ctx) => {
      seen.push('onStop');
      return ctx.order.cancel('s-1');
    },
  });
}

/** A kernel on a recording port whose bid `s-1` the venue acknowledged OPEN. */
function aStartedBidder(seen: string[]) {
  const rig = aRecordingKernelRig([{ id: 's', strategy: aLoggingBidder(seen) }]);
  rig.market.next(aQuote(1_000, 100));
  rig.port.emit(anOrderUpdate(anOrder({ clientOrderId: 's-1', orderId: 'o-1', updateAt: 1_000 })));
  return rig;
}

describe('kernel: events after stop', () => {
  it('folds an order update that settles an order after stop, but tells no strategy', () => {
    const seen: string[] = [];
    const { kernel, port } = aStartedBidder(seen);
    kernel.stop();
    expect(kernel.state.orderByRef('s-1')?.orderState).toBe('PENDING_CANCEL');
    kernel.push(
      anOrderUpdate(
        anOrder({ clientOrderId: 's-1', orderId: 'o-1', orderState: 'CANCELLED', updateAt: 2_000 }),
      ),
    );
    expect(kernel.state.orderByRef('s-1')?.orderState).toBe('CANCELLED');
    expect(kernel.state.openOrders()).toEqual([]);
    expect(seen).toEqual(['onStart', 'onQuote 1000', 'onOrder OPEN', 'onStop']);
    expect(port.submitted.map((c) => c.intent.kind)).toEqual(['placeOrder', 'cancelOrder']);
  });

  it('tells foldedAfterStop of each User Data event the stopped kernel folded, once folded, and of nothing before stop', () => {
    const seen: string[] = [];
    const { kernel } = aStartedBidder(seen);
    const folded: string[] = [];
    kernel.foldedAfterStop.subscribe((event) => {
      folded.push(`${event.kind} ${kernel.state.orderByRef('s-1')?.orderState}`);
    });
    kernel.push(anOrderUpdate(anOrder({ clientOrderId: 's-1', orderId: 'o-1', updateAt: 1_500 })));
    expect(folded).toEqual([]);
    kernel.stop();
    kernel.push(aQuote(2_000, 101));
    kernel.push(
      anOrderUpdate(
        anOrder({ clientOrderId: 's-1', orderId: 'o-1', orderState: 'CANCELLED', updateAt: 2_000 }),
      ),
    );
    // Market data after stop is dropped, not folded.
    expect(folded).toEqual(['order CANCELLED']);
  });

  it('puts an onStop cancel refused after stop back to the venue word, reports it as a denial the strategy is not told of, and looks nothing up', async () => {
    const seen: string[] = [];
    const { kernel, port, denials } = aStartedBidder(seen);
    kernel.stop();
    const cancelRef = port.submitted[1]?.intent.ref ?? '';
    kernel.push({
      kind: 'commandRejected',
      ts: 3_000,
      recvTs: 3_000,
      ref: cancelRef,
      intentKind: 'cancelOrder',
      code: COMMAND_OUTCOME_UNKNOWN,
      message: 'no reply within 5000 ms',
    });
    await flushPromises();
    expect(kernel.state.orderByRef('s-1')?.orderState).toBe('OPEN');
    expect(denials.map((d) => [d.strategyId, d.ref, d.intentKind, d.source, d.check])).toEqual([
      ['s', cancelRef, 'cancelOrder', 'venue', `venue.${COMMAND_OUTCOME_UNKNOWN}`],
    ]);
    expect(port.lookups).toEqual([]);
    expect(seen.at(-1)).toBe('onStop');
  });

  it("reports an onStop close the venue refuses after stop as its sender's denial, without telling it", async () => {
    const seen: string[] = [];
    const closer = defineStrategy({
      name: 'stop-closer',
      params: z.object({}),
      onDenied: (_ctx, denial) => {
        seen.push(`onDenied ${denial.check}`);
      },
      onStop: (ctx) => ctx.order.closePosition(BTC),
    });
    const { kernel, port, denials } = aRecordingKernelRig([{ id: 'c', strategy: closer }]);
    port.emit(aPositionUpdate(0, '1'));
    kernel.stop();
    const close = port.submitted[0]?.intent;
    expect(close?.kind).toBe('closePosition');
    kernel.push({
      kind: 'commandRejected',
      ts: 2_000,
      recvTs: 2_000,
      ref: close?.ref ?? '',
      intentKind: 'closePosition',
      code: 401023,
      message: 'insufficient margin',
    });
    await flushPromises();
    expect(denials).toEqual([
      {
        kind: 'denied',
        strategyId: 'c',
        ref: close?.ref,
        intentKind: 'closePosition',
        sym: BTC,
        source: 'venue',
        check: 'venue.401023',
        reason:
          'the venue refused closePosition c-1: insufficient margin (code 401023); it came after the stop, so the strategy was not told',
        ts: 0,
      },
    ]);
    expect(seen).toEqual([]);
  });

  it('drops market data pushed after stop: no hook, no fold', () => {
    const seen: string[] = [];
    const { kernel } = aStartedBidder(seen);
    kernel.stop();
    kernel.push(aQuote(5_000, 120));
    expect(kernel.state.quotes.get(BTC)?.ts).toBe(1_000);
    expect(seen.at(-1)).toBe('onStop');
  });

  it('refuses to start a stopped kernel, so onStart never runs after stop', async () => {
    const seen: string[] = [];
    const kernel = new Kernel({
      instruments: [anInstrument(BTC)],
      market: new Subject<MarketEvent>(),
      execution: aRecordingPort(),
      gate: new RiskGate(),
      scheduler: virtualScheduler(),
      strategies: [{ id: 's', strategy: aLoggingBidder(seen) }],
    });
    kernel.stop();
    await expect(kernel.start()).rejects.toThrow(/stopped/);
    expect(seen).toEqual([]);
  });

  it('subscribes to no market data when a strategy stops the kernel from its onStart', () => {
    const market = new Subject<MarketEvent>();
    const port = aRecordingPort();
    const box: { kernel?: Kernel } = {};
    const stopper = defineStrategy({
      name: 'stopper',
      params: z.object({}),
      onStart: () => {
        box.kernel?.stop();
      },
    });
    const kernel = new Kernel({
      instruments: [anInstrument(BTC)],
      market,
      execution: port,
      gate: new RiskGate(),
      scheduler: virtualScheduler(),
      strategies: [{ id: 's', strategy: stopper }],
    });
    box.kernel = kernel;
    void kernel.start();
    expect(market.observed).toBe(false);
  });

  it('fires no strategy timer when time is moved after stop', () => {
    const seen: string[] = [];
    const timed = defineStrategy({
      name: 'timed',
      params: z.object({}),
      onStart: (ctx) => {
        ctx.setTimer(1_000, 'late');
      },
      onTimer: (_ctx, timer) => {
        seen.push(`onTimer ${timer.tag}`);
      },
    });
    const rig = aKernelRig([{ id: 't', strategy: timed }]);
    expect(rig.kernel.nextTimerAt).toBe(1_000);
    rig.kernel.stop();
    expect(rig.kernel.nextTimerAt).toBe(Number.POSITIVE_INFINITY);
    rig.kernel.advanceTime(5_000);
    expect(seen).toEqual([]);
  });
});
