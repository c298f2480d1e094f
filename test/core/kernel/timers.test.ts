import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  defineStrategy,
  Kernel,
  type Scheduler,
  type StrategyContext,
  VirtualClock,
} from '../../../core/kernel/index.ts';
import type { MarketEvent } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { anOrderUpdate, aQuote, BTC } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';
import { aRecordingPort } from '../../kit/recording-execution-port.ts';

describe('kernel: strategy timers on virtual time', () => {
  it('fires timers in time order, before the event that passes them, with the clock at the timer time', () => {
    const log: string[] = [];
    const strategy = defineStrategy({
      name: 'timed',
      params: z.object({}),
      onStart: (ctx) => {
        ctx.setTimerAt(5_000, 'late');
        ctx.setTimer(1_000, 'early');
        ctx.setTimerAt(1_000, 'early-too');
      },
      onTimer: (ctx, timer) => {
        log.push(`${timer.tag}@${ctx.now()}`);
      },
      onQuote: (ctx, quote) => {
        log.push(`quote@${ctx.now()}`);
        if (quote.ts === 6_000) ctx.setTimer(500, 'from-quote');
      },
    });
    const rig = aKernelRig([{ id: 't', strategy }]);
    rig.market.next(aQuote(500, 100));
    rig.market.next(aQuote(6_000, 100));
    rig.market.next(aQuote(6_500, 100));
    expect(log).toEqual([
      'quote@500',
      'early@1000',
      'early-too@1000',
      'late@5000',
      'quote@6000',
      'from-quote@6500',
      'quote@6500',
    ]);
  });

  it('repeats `every` timers at each period until cancelled', () => {
    const fired: number[] = [];
    const strategy = defineStrategy({
      name: 'ticker',
      params: z.object({}),
      state: () => ({ id: 0 }),
      onStart: (ctx) => {
        ctx.state.id = ctx.every(1_000, 'tick');
      },
      onTimer: (ctx, timer) => {
        fired.push(timer.ts);
        if (fired.length === 3) ctx.cancelTimer(ctx.state.id);
      },
    });
    const rig = aKernelRig([{ id: 't', strategy }]);
    rig.market.next(aQuote(2_500, 100));
    expect(fired).toEqual([1_000, 2_000]);
    rig.kernel.advanceTime(10_000);
    expect(fired).toEqual([1_000, 2_000, 3_000]);
  });

  it('refuses a timer at NaN or an infinite time with a RangeError, a fault of the hook that set it, and keeps the other timers in order', () => {
    type TimerCalls = Pick<StrategyContext<unknown, unknown>, 'setTimer' | 'setTimerAt' | 'every'>;
    const bad: readonly [string, (ctx: TimerCalls) => number][] = [
      ['setTimer(NaN)', (ctx) => ctx.setTimer(Number.NaN)],
      ['setTimerAt(NaN)', (ctx) => ctx.setTimerAt(Number.NaN)],
      ['setTimer(Infinity)', (ctx) => ctx.setTimer(Number.POSITIVE_INFINITY)],
      ['setTimerAt(-Infinity)', (ctx) => ctx.setTimerAt(Number.NEGATIVE_INFINITY)],
      ['every(Infinity)', (ctx) => ctx.every(Number.POSITIVE_INFINITY)],
    ];
    for (const [name, call] of bad) {
      const fired: string[] = [];
      const good = defineStrategy({
        name: 'timed',
        params: z.object({}),
        onStart: (ctx) => {
          for (const [at, tag] of [
            [5_000, 'e'],
            [1_000, 'a'],
            [4_000, 'd'],
          ] as const)
            ctx.setTimerAt(at, tag);
        },
        // After the broken strategy's start: set behind its bad timer, had it been queued.
        onQuote: (ctx) => {
          for (const [at, tag] of [
            [2_000, 'b'],
            [6_000, 'f'],
            [3_000, 'c'],
            [700, 'z'],
          ] as const)
            ctx.setTimerAt(at, tag);
        },
        onTimer: (ctx, timer) => {
          fired.push(`${timer.tag}@${ctx.now()}`);
        },
      });
      const broken = defineStrategy({
        name: 'broken',
        params: z.object({}),
        onStart: (ctx) => {
          call(ctx);
        },
      });
      const rig = aKernelRig([
        { id: 'g', strategy: good },
        { id: 'x', strategy: broken },
      ]);
      rig.market.next(aQuote(500, 100));
      rig.kernel.advanceTime(10_000);
      expect(fired, name).toEqual(['z@700', 'a@1000', 'b@2000', 'c@3000', 'd@4000', 'e@5000', 'f@6000']);
      expect(rig.faults, name).toEqual([
        expect.stringMatching(
          /^x:onStart:RangeError: strategy x: (setTimer|setTimerAt|every)\(\w+\) needs a finite/,
        ),
      ]);
    }
  });

  it('lets a timer hook submit intents, stamped at the timer time', () => {
    const strategy = defineStrategy({
      name: 'scheduled-buy',
      params: z.object({}),
      onStart: (ctx) => {
        ctx.setTimerAt(2_000, 'buy');
      },
      onTimer: (ctx) => ctx.order.market({ sym: BTC, side: 'BUY', qty: '0.1' }),
    });
    const rig = aKernelRig([{ id: 't', strategy }]);
    rig.market.next(aQuote(1_000, 100));
    rig.market.next(aQuote(3_000, 200));
    expect(rig.venue.submitted.map((c) => c.intent.kind)).toEqual(['placeOrder']);
    expect(rig.kernel.state.orderByRef('t-1')).toMatchObject({ orderState: 'FILLED', createAt: 2_000 });
  });

  it('delivers timers to the reactive style through ctx.timers()', () => {
    const fired: string[] = [];
    const strategy = defineStrategy({
      name: 'rx-timer',
      params: z.object({}),
      setup: (ctx) => {
        ctx.timers().subscribe((t) => fired.push(`${t.tag}@${t.ts}`));
        ctx.setTimer(100, 'a');
        return undefined;
      },
    });
    const rig = aKernelRig([{ id: 't', strategy }], { start: 1_000 });
    rig.kernel.advanceTime(1_100);
    expect(fired).toEqual(['a@1100']);
  });

  it('keeps one strategy’s timers apart from another’s', () => {
    const fired: string[] = [];
    const make = (name: string, delay: number) =>
      defineStrategy({
        name,
        params: z.object({}),
        onStart: (ctx) => {
          ctx.setTimer(delay, name);
        },
        onTimer: (ctx, t) => {
          fired.push(`${ctx.id}:${t.tag}`);
        },
      });
    const rig = aKernelRig([
      { id: 'one', strategy: make('slow', 200) },
      { id: 'two', strategy: make('fast', 100) },
    ]);
    rig.kernel.advanceTime(1_000);
    expect(fired).toEqual(['two:fast', 'one:slow']);
  });

  it('fires no timer the clock cannot reach: an event stamped past a clock held back fires only those due by the clock', () => {
    const fired: number[] = [];
    const strategy = defineStrategy({
      name: 'ticker',
      params: z.object({}),
      onStart: (ctx) => void ctx.every(60_000, 'tick'),
      onTimer: (_ctx, timer) => void fired.push(timer.ts),
    });
    // A lockstep paper session's clock never passes the venue's time (here 200,000).
    const clock = new VirtualClock(0);
    const scheduler: Scheduler = {
      clock,
      followsEventTime: true,
      advanceTo: (ts) => clock.advanceTo(Math.min(ts, 200_000)),
      wakeAt: () => undefined,
      cancelWake: () => undefined,
    };
    const market = new Subject<MarketEvent>();
    const port = aRecordingPort();
    const kernel = new Kernel({
      instruments: [anInstrument(BTC)],
      market: market.asObservable(),
      execution: port,
      gate: new RiskGate(),
      scheduler,
      strategies: [{ id: 't', strategy }],
    });
    void kernel.start();
    market.next(aQuote(1_000, 100));
    // An order the adapter reported REJECTED itself, stamped on the wall clock, a year ahead.
    port.emit(anOrderUpdate(anOrder({ clientOrderId: 'x', orderState: 'REJECTED' }), 31_536_000_000));
    expect(fired).toEqual([60_000, 120_000, 180_000]);
    expect(clock.now()).toBe(200_000);
    market.next(aQuote(250_000, 100));
    expect(fired).toEqual([60_000, 120_000, 180_000]);
    kernel.stop();
  });
});
