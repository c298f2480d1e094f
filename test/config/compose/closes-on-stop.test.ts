import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { awaitClosesOnStop } from '../../../config/compose/closes-on-stop.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import type { TimerPort } from '../../../core/venue/index.ts';
import { aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { aPositionUpdate, BTC } from '../../kit/kernel-events.ts';
import { aFillOf, anUpdateOf, type FilledOrder } from '../../kit/venue-fill-events.ts';

const flushPromises = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

/** Closes its BTC position from onStop. */
const closeOnStop = defineStrategy({
  name: 'close-on-stop',
  params: z.object({}),
  onStop: (ctx) => ctx.order.closePosition(BTC),
});

/** A kernel holding 10 BTC, stopped: its strategy's close is in flight. */
function aStoppedCloser() {
  const rig = aRecordingKernelRig([{ id: 's', strategy: closeOnStop }]);
  rig.port.emit(aPositionUpdate(0, '10'));
  rig.kernel.stop();
  return rig;
}

/** A timer port whose timers fire only when the test says so, noting each armed and cancelled. */
function aManualTimer() {
  const armed: { ms: number; fire: () => void; cancelled: boolean }[] = [];
  const port: TimerPort = {
    now: () => 0,
    setTimer(fn, ms) {
      const timer = { ms, fire: fn, cancelled: false };
      armed.push(timer);
      return () => {
        timer.cancelled = true;
      };
    },
  };
  return { port, armed };
}

/** The venue's close of the 10 BTC, named as the paper venue names it. */
const CLOSE: FilledOrder = {
  orderId: 'v-close',
  clientOrderId: 'paper-close-1',
  side: 'SELL',
  reduceOnly: true,
};

describe('waiting at stop for the closes the strategies sent', () => {
  it('ends at the fold that fills the last close, with no polling: only the bound is armed, and it is cancelled', async () => {
    const { kernel, port } = aStoppedCloser();
    const timer = aManualTimer();
    let over = false;
    const waiting = awaitClosesOnStop(kernel, 5_000, timer.port).then(() => {
      over = true;
    });
    await flushPromises();
    expect(timer.armed.map((t) => t.ms)).toEqual([5_000]);
    // The close's order is seen, open: its fill may still come.
    port.emit(anUpdateOf(CLOSE, '10', 2));
    await flushPromises();
    expect(over).toBe(false);
    port.emit(anUpdateOf(CLOSE, '10', 3, { orderState: 'FILLED', executedQty: D(10) }));
    port.emit(aFillOf(CLOSE, '10', 3));
    await waiting;
    expect(over).toBe(true);
    expect(timer.armed.map((t) => [t.ms, t.cancelled])).toEqual([[5_000, true]]);
  });

  it('ends when shutdown.timeoutMs passes with a close still under way', async () => {
    const { kernel, port } = aStoppedCloser();
    const timer = aManualTimer();
    let over = false;
    const waiting = awaitClosesOnStop(kernel, 2_000, timer.port).then(() => {
      over = true;
    });
    port.emit(anUpdateOf(CLOSE, '10', 2));
    await flushPromises();
    expect(over).toBe(false);
    timer.armed[0]?.fire();
    await waiting;
    expect(over).toBe(true);
  });

  it('ends at once, arming nothing, when no close is under way', async () => {
    const rig = aRecordingKernelRig([{ id: 's', strategy: closeOnStop }]);
    // Flat: the close reaches no leg and is not in flight.
    rig.kernel.stop();
    const timer = aManualTimer();
    await awaitClosesOnStop(rig.kernel, 2_000, timer.port);
    expect(timer.armed).toEqual([]);
  });
});
