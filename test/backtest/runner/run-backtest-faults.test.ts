import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { resultFromJson, resultToJson, shownPath } from '../../../backtest/report/index.ts';
import { type BacktestRunOptions, runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { Intent } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { flatBarsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2024, 0, 1);
/** This file as a fault names it: relative to the working directory, the project's. */
const THIS_FILE = shownPath(fileURLToPath(import.meta.url));
const aTempDir = tempDirsRemovedAfterAll('keel-runner-faults-');

/**
 * Throws in the hook its params name (or in its state factory), on the second bar it sees, or
 * returns what is not an intent there (a Promise, as an async hook does; an array holding
 * undefined); counts the bars it saw.
 */
const faulty = defineStrategy({
  name: 'faulty',
  params: z.object({
    what: z.enum(['throwOnBar', 'nanQty', 'throwOnStart', 'asyncOnBar', 'undefinedInArray', 'throwInState']),
  }),
  state: (p) => {
    if (p.what === 'throwInState') throw new Error('state boom');
    return { bars: 0 };
  },
  onStart: (ctx) => {
    if (ctx.params.what === 'throwOnStart') throw new Error('start boom');
    ctx.watchBars(BTC, '1m');
  },
  onBar: (ctx, bar) => {
    ctx.state.bars++;
    if (ctx.state.bars < 2) return undefined;
    if (ctx.params.what === 'nanQty')
      return ctx.order.limit({ sym: BTC, side: 'BUY', qty: Number.NaN, price: bar.close });
    const buy = (): Intent => ctx.order.market({ sym: BTC, side: 'BUY', qty: 0.1 });
    if (ctx.params.what === 'asyncOnBar') return (async () => buy())() as unknown as Intent;
    if (ctx.params.what === 'undefinedInArray') return [undefined, buy()] as unknown as Intent[];
    throw new Error(`boom on bar ${ctx.state.bars}`);
  },
});

function options(recording: string, what: string): BacktestRunOptions {
  return barRunOptions(recording, [anInstrument(BTC)], [{ id: 'bad', strategy: faulty, params: { what } }]);
}

describe('backtest runner: strategy faults', () => {
  let bars = '';
  beforeAll(async () => {
    // Four 1m bars opening at T0, T0+1m, T0+2m, T0+3m.
    bars = await flatBarsRecordingIn(aTempDir(), 4, T0, BTC);
  });

  it('records a hook that threw: strategy, hook, event time, error and the line in the strategy file', async () => {
    const result = await runBacktest(options(bars, 'throwOnBar'));
    try {
      const faults = result.faults ?? [];
      expect(faults).toHaveLength(1);
      const [fault] = faults;
      expect(fault?.strategyId).toBe('bad');
      expect(fault?.hook).toBe('onBar');
      expect(fault?.error).toBe('Error: boom on bar 2');
      // The second 1m bar (opening T0+1m) closes at T0+2m; the strategy sees it 5 ms later (the
      // default market-data latency), and that is when the fault happens.
      expect(fault?.ts).toBe(T0 + 2 * 60_000 + 5);
      expect(fault?.at?.startsWith(`${THIS_FILE}:`)).toBe(true);
      // The fault is in the result file and reads back.
      const back = resultFromJson(resultToJson(result));
      expect(back.faults).toEqual(faults);
    } finally {
      result.dispose?.();
    }
  });

  it('denies a NaN quantity (orderQty, saying it got NaN) instead of halting the strategy', async () => {
    const result = await runBacktest(options(bars, 'nanQty'));
    try {
      expect(result.faults ?? []).toEqual([]);
      const [denial] = [...(result.denials ?? [])];
      expect(denial?.check).toBe('orderQty');
      expect(denial?.reason).toMatch(/qty must be a positive number, got NaN/);
    } finally {
      result.dispose?.();
    }
  });

  it('records a throw in onStart at the run start', async () => {
    const result = await runBacktest(options(bars, 'throwOnStart'));
    try {
      expect(result.faults?.map((f) => [f.hook, f.error])).toEqual([['onStart', 'Error: start boom']]);
    } finally {
      result.dispose?.();
    }
  });

  /** The event time of the fault of a run whose strategy throws in `what`. */
  async function faultTimeOf(what: 'throwOnBar' | 'throwOnStart'): Promise<number | undefined> {
    const result = await runBacktest(options(bars, what));
    result.dispose?.();
    return result.faults?.[0]?.ts;
  }

  it('records a state factory that threw like a hook: strategy, `state`, run start, error and its line', async () => {
    const result = await runBacktest(options(bars, 'throwInState'));
    try {
      const [fault, ...more] = result.faults ?? [];
      expect(more).toEqual([]);
      expect(fault).toMatchObject({ strategyId: 'bad', hook: 'state', error: 'Error: state boom' });
      // At the run's start, when a throw in onStart is reported.
      expect(fault?.ts).toBe(await faultTimeOf('throwOnStart'));
      expect(fault?.at?.startsWith(`${THIS_FILE}:`)).toBe(true);
      expect(result.orders.length).toBe(0);
    } finally {
      result.dispose?.();
    }
  });

  it.each([
    [
      'an async hook (a Promise)',
      'asyncOnBar',
      /^TypeError: onBar returned a Promise .*strategy hooks are synchronous/,
    ],
    [
      'an array holding undefined',
      'undefinedInArray',
      /^TypeError: onBar returned an array whose element 0 is undefined, not an intent/,
    ],
  ])(
    'records a hook that returned %s as a fault at its event, sending nothing, and the run finishes',
    async (_, what, error) => {
      const result = await runBacktest(options(bars, what));
      try {
        const [fault, ...more] = result.faults ?? [];
        expect(more).toEqual([]);
        expect(fault?.strategyId).toBe('bad');
        expect(fault?.hook).toBe('onBar');
        // At the event of the second bar, when a throw there is reported.
        expect(fault?.ts).toBe(await faultTimeOf('throwOnBar'));
        expect(fault?.error).toMatch(error);
        expect(result.orders.length).toBe(0);
      } finally {
        result.dispose?.();
      }
    },
  );

  it("cancels a halted strategy's resting orders and algo orders, as a live or paper session does", async () => {
    // Rests a buy far below the market and a stop far above it on its first bar, throws on its second.
    const rester = defineStrategy({
      name: 'rester',
      params: z.object({}),
      state: () => ({ bars: 0 }),
      onStart: (ctx) => ctx.watchBars(BTC, '1m'),
      onBar: (ctx) => {
        if (++ctx.state.bars === 2) throw new Error('boom');
        if (ctx.state.bars > 1) return undefined;
        return [
          ctx.order.limit({ sym: BTC, side: 'BUY', qty: 0.1, price: 50 }),
          ctx.order.algo({ sym: BTC, side: 'BUY', qty: 0.1, triggerPrice: 200, condition: 'GTE' }),
        ];
      },
    });
    const run = async (cancelOrdersOnFault?: boolean) => {
      const result = await runBacktest({
        ...options(bars, 'nanQty'),
        strategies: [{ id: 'rest', strategy: rester }],
        closeAtEnd: false,
        ...(cancelOrdersOnFault === undefined ? {} : { cancelOrdersOnFault }),
      });
      try {
        return [
          ...[...result.orders].map((o) => `order ${o.orderState}`),
          ...[...(result.algoOrders ?? [])].map((a) => `algo ${a.state}`),
        ];
      } finally {
        result.dispose?.();
      }
    };
    expect(await run()).toEqual(['order CANCELLED', 'algo CANCELLED']);
    expect(await run(false)).toEqual(['order OPEN', 'algo NEW']);
  });

  it("cancels every strategy's resting orders when the kill switch halts trading, as a session does", async () => {
    // Buys 10 at market and rests a buy far below on its first bar: the buy's fee alone is a
    // 0.01 % drawdown, which trips the kill switch to HALTED.
    const buyer = defineStrategy({
      name: 'buyer',
      params: z.object({}),
      state: () => ({ bars: 0 }),
      onStart: (ctx) => ctx.watchBars(BTC, '1m'),
      onBar: (ctx) =>
        ++ctx.state.bars === 1
          ? [
              ctx.order.market({ sym: BTC, side: 'BUY', qty: 10 }),
              ctx.order.limit({ sym: BTC, side: 'BUY', qty: 0.1, price: 50 }),
            ]
          : undefined,
    });
    const run = async (cancelOrdersOnHalt?: boolean) => {
      const result = await runBacktest({
        ...options(bars, 'nanQty'),
        gate: new RiskGate({ killSwitch: { maxDrawdown: 0.00005 } }),
        strategies: [{ id: 'buy', strategy: buyer }],
        closeAtEnd: false,
        ...(cancelOrdersOnHalt === undefined ? {} : { cancelOrdersOnHalt }),
      });
      try {
        const trip = result.meta.warnings?.find((w) => w.startsWith('the kill switch'));
        return [
          ...[...result.orders].map((o) => `${o.orderType} ${o.orderState}`),
          trip?.replace(/.*; after it /, ''),
        ];
      } finally {
        result.dispose?.();
      }
    };
    expect(await run()).toEqual([
      'MARKET FILLED',
      'LIMIT CANCELLED',
      'only cancels passed (and the orders of reduce-only trailing stops placed before it); its sweep cancelled 1 order(s) and algo order(s) that do not protect an open position; it kept no protective order',
    ]);
    expect(await run(false)).toEqual([
      'MARKET FILLED',
      'LIMIT OPEN',
      'only cancels passed (and the orders of reduce-only trailing stops placed before it)',
    ]);
  });

  it('has no faults when nothing threw', async () => {
    const calm = defineStrategy({ name: 'calm', params: z.object({}), onBar: () => undefined });
    const result = await runBacktest({
      ...options(bars, 'nanQty'),
      strategies: [{ id: 'ok', strategy: calm }],
    });
    try {
      expect(result.faults).toEqual([]);
    } finally {
      result.dispose?.();
    }
  });
});
