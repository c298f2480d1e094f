import { type Observable, of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy, type IntentOutput, type StrategyContext } from '../../../core/kernel/index.ts';
import type { Intent } from '../../../core/model/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aQuote, BTC } from '../../kit/kernel-events.ts';

type Ctx = StrategyContext<Record<string, never>, undefined>;

/** A market buy of 0.1 BTC from the strategy's own factory (10 USDT at 100: the gate lets it through). */
const buy = (ctx: Ctx): Intent => ctx.order.market({ sym: BTC, side: 'BUY', qty: 0.1 });

/**
 * Runs one strategy whose onQuote returns what `out` makes of its context, next to a healthy one;
 * `source` is the plugin file its slot names, if any.
 */
function runQuoteHook(out: (ctx: Ctx) => unknown, source?: string) {
  let healthyCalls = 0;
  let calls = 0;
  const strategy = defineStrategy({
    name: 'returns-things',
    params: z.object({}),
    onQuote: (ctx) => {
      calls++;
      return out(ctx) as IntentOutput;
    },
  });
  const healthy = defineStrategy({
    name: 'healthy',
    params: z.object({}),
    onQuote: () => {
      healthyCalls++;
    },
  });
  const rig = aKernelRig([
    { id: 'x', strategy, ...(source === undefined ? {} : { source }) },
    { id: 'y', strategy: healthy },
  ]);
  rig.market.next(aQuote(1, 100));
  rig.market.next(aQuote(2, 100));
  return { rig, calls, healthyCalls };
}

/** Lets pending promise reactions (an async hook's rejection) run. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('strategy runner: what a hook may return', () => {
  it('halts a strategy whose async hook returned a Promise, says hooks are synchronous, and keeps the others running', async () => {
    const { rig, calls, healthyCalls } = runQuoteHook(async (ctx) => buy(ctx));
    await settle();
    expect(rig.faults).toHaveLength(1);
    expect(rig.faults[0]).toMatch(
      /^x:onQuote:TypeError: onQuote returned a Promise \(an async function\?\): strategy hooks are synchronous, so return the intents \(or nothing\) without await/,
    );
    expect(calls).toBe(1);
    expect(healthyCalls).toBe(2);
    // Nothing the Promise resolved to reached the venue.
    expect(rig.venue.submitted).toHaveLength(0);
  });

  it('reports an async hook that throws as the same fault at the event, with no unhandled rejection', async () => {
    const { rig } = runQuoteHook(async () => {
      throw new Error('async boom');
    });
    // An unhandled rejection would fail this test run; the fault is already there synchronously.
    expect(rig.faults).toHaveLength(1);
    expect(rig.faults[0]).toMatch(/^x:onQuote:TypeError: onQuote returned a Promise/);
    await settle();
    await settle();
    expect(rig.faults).toHaveLength(1);
  });

  it('passes what an async hook rejected with to the rejection channel, after its fault, so the user sees their own error', async () => {
    const { rig } = runQuoteHook(async () => {
      throw new Error('async boom');
    }, '/plugins/async.ts');
    expect(rig.rejections).toEqual([]);
    await settle();
    expect(rig.rejections).toEqual([
      { strategyId: 'x', where: 'onQuote', reason: new Error('async boom'), source: '/plugins/async.ts' },
    ]);
    expect(rig.faultRecords).toMatchObject([{ strategyId: 'x', where: 'onQuote', how: 'returned' }]);
  });

  it('reports no rejection for an async hook whose Promise resolves', async () => {
    const { rig } = runQuoteHook(async () => undefined);
    await settle();
    expect(rig.faults).toHaveLength(1);
    expect(rig.rejections).toEqual([]);
  });

  it('says a hook returned (not threw) a bad value, and names the plugin file its slot came from', () => {
    const { rig } = runQuoteHook(() => [undefined], '/plugins/bad-return.ts');
    expect(rig.faultRecords).toMatchObject([
      { strategyId: 'x', where: 'onQuote', how: 'returned', source: '/plugins/bad-return.ts', ts: 1 },
    ]);
    const thrown = runQuoteHook(() => {
      throw new Error('boom');
    }, '/plugins/throws.ts').rig.faultRecords;
    expect(thrown).toHaveLength(1);
    expect(thrown[0]?.how).toBeUndefined();
    expect(thrown[0]?.source).toBe('/plugins/throws.ts');
  });

  it('halts a strategy whose hook returned an array holding undefined, and sends none of it', () => {
    const { rig, calls, healthyCalls } = runQuoteHook((ctx) => [undefined, buy(ctx)]);
    expect(rig.faults).toEqual([
      'x:onQuote:TypeError: onQuote returned an array whose element 0 is undefined, not an intent: return one intent, an array of intents, or nothing (undefined); none of them was sent',
    ]);
    expect(rig.venue.submitted).toHaveLength(0);
    expect(rig.denials).toEqual([]);
    expect([calls, healthyCalls]).toEqual([1, 2]);
  });

  it.each([
    ['null', () => null, 'null'],
    ['false (from `cond && intent`)', () => false, 'the boolean false'],
    ['a number', () => 5, 'the number 5'],
    ['a string', () => 'BUY', 'the string "BUY"'],
    [
      'an object of no intent kind',
      () => ({ kind: 'buy' }),
      'an object of kind "buy", which is not an intent kind',
    ],
    ['an object with no kind', () => ({ sym: BTC }), 'an object without a kind'],
    [
      'an intent without its ref',
      (ctx: Ctx) => ({ ...buy(ctx), ref: undefined }),
      'a placeOrder intent without a string ref',
    ],
    [
      'a later element that is not an intent',
      (ctx: Ctx) => [buy(ctx), [buy(ctx)]],
      'an array whose element 1 is an object without a kind',
    ],
  ])('halts a strategy whose hook returned %s, naming it', (_, out, said) => {
    const { rig } = runQuoteHook(out);
    expect(rig.faults).toEqual([
      `x:onQuote:TypeError: onQuote returned ${said}, not an intent: return one intent, an array of intents, or nothing (undefined); none of them was sent`,
    ]);
    expect(rig.venue.submitted).toHaveLength(0);
  });

  it('still sends one intent, an array of intents, and nothing', () => {
    let n = 0;
    const { rig } = runQuoteHook((ctx) => {
      n++;
      return n === 1 ? buy(ctx) : [buy(ctx), buy(ctx)];
    });
    expect(rig.faults).toEqual([]);
    expect(rig.denials.map((d) => d.reason)).toEqual([]);
    expect(rig.venue.submitted.map((c) => c.intent.ref)).toEqual(['x-1', 'x-2', 'x-3']);
  });

  it('checks the same in the hooks called through the common path (onBar, onTimer...)', () => {
    const strategy = defineStrategy({
      name: 'bad-start',
      params: z.object({}),
      onStart: () => [undefined] as unknown as IntentOutput,
    });
    const rig = aKernelRig([{ id: 's', strategy }]);
    expect(rig.faults).toEqual([
      's:onStart:TypeError: onStart returned an array whose element 0 is undefined, not an intent: return one intent, an array of intents, or nothing (undefined); none of them was sent',
    ]);
  });

  it('makes ctx.submit of a non-intent a fault of the hook that called it, at the caller', () => {
    const strategy = defineStrategy({
      name: 'submits-junk',
      params: z.object({}),
      onQuote: (ctx) => ctx.submit([undefined] as unknown as Intent[]),
    });
    const rig = aKernelRig([{ id: 'j', strategy }]);
    rig.market.next(aQuote(1, 100));
    expect(rig.faults).toEqual([
      'j:onQuote:TypeError: ctx.submit was given an array whose element 0 is undefined, not an intent: return one intent, an array of intents, or nothing (undefined); none of them was sent',
    ]);
  });

  it('halts a strategy whose setup returned a Promise instead of an Observable', async () => {
    const strategy = defineStrategy({
      name: 'async-setup',
      params: z.object({}),
      setup: (async () => undefined) as unknown as () => undefined,
      onQuote: () => {
        throw new Error('never called: the strategy is halted');
      },
    });
    const rig = aKernelRig([{ id: 'a', strategy }]);
    rig.market.next(aQuote(1, 100));
    await settle();
    expect(rig.faults).toEqual([
      'a:setup:TypeError: setup returned a Promise (an async function?): it must return an Observable of intents or nothing, synchronously',
    ]);
  });

  it('halts a strategy whose setup stream emitted a non-intent, once, and unsubscribes it', () => {
    const strategy = defineStrategy({
      name: 'rx-junk',
      params: z.object({}),
      // undefined is nothing, as a hook's return; null is not an intent.
      setup: () => of(undefined, null, null) as unknown as Observable<Intent>,
    });
    const rig = aKernelRig([{ id: 'r', strategy }]);
    expect(rig.faults).toEqual([
      'r:setup stream:TypeError: setup stream emitted null, not an intent: return one intent, an array of intents, or nothing (undefined); none of them was sent',
    ]);
  });

  it('reports a state factory that throws as a fault of `state` at start, and keeps the others running', () => {
    let calls = 0;
    const strategy = defineStrategy({
      name: 'bad-state',
      params: z.object({}),
      state: (): { n: number } => {
        throw new Error('state boom');
      },
      onStart: () => {
        throw new Error('never called: the strategy has no state');
      },
      onQuote: () => {
        calls++;
      },
    });
    let healthyCalls = 0;
    const healthy = defineStrategy({
      name: 'healthy',
      params: z.object({}),
      onQuote: () => {
        healthyCalls++;
      },
    });
    const rig = aKernelRig([
      { id: 's', strategy },
      { id: 'h', strategy: healthy },
    ]);
    rig.market.next(aQuote(1, 100));
    expect(rig.faults).toEqual(['s:state:Error: state boom']);
    expect([calls, healthyCalls]).toEqual([0, 1]);
  });

  it('reports a state factory that returned a Promise as a fault of `state`', async () => {
    const strategy = defineStrategy({
      name: 'async-state',
      params: z.object({}),
      state: (async () => {
        throw new Error('async state boom');
      }) as unknown as () => undefined,
    });
    const rig = aKernelRig([{ id: 'a', strategy }]);
    await settle();
    expect(rig.faults).toEqual([
      'a:state:TypeError: state returned a Promise (an async function?): the state factory must return the state itself, synchronously',
    ]);
    expect(rig.faultRecords[0]?.how).toBe('returned');
    expect(rig.rejections).toEqual([
      { strategyId: 'a', where: 'state', reason: new Error('async state boom') },
    ]);
  });
});
