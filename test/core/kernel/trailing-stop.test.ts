import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type {
  IntentDenied,
  StrategyContext,
  TrailingStop,
  TrailingStopInput,
} from '../../../core/kernel/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { Intent, MarkPriceEvent, PlaceOrderIntent } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aFeedBar, aQuote, aTrade, BTC } from '../../kit/kernel-events.ts';

type Ctx = StrategyContext<unknown, unknown>;

/** A strategy that, at start, takes a position (when `entry` is given) and places a trailing stop. */
function stopper(
  stop: Omit<TrailingStopInput, 'sym'>,
  options: {
    entry?: 'BUY' | 'SELL';
    onTrade?: (ctx: Ctx, ts: number) => Intent | undefined;
  } = {},
) {
  const updates: TrailingStop[] = [];
  const denials: IntentDenied[] = [];
  const levels: string[] = [];
  const strategy = defineStrategy({
    name: 'trailer',
    params: z.object({}),
    onStart: (ctx) => [
      ...(options.entry === undefined ? [] : [ctx.order.market({ sym: BTC, side: options.entry, qty: 1 })]),
      ctx.order.trailingStop({ sym: BTC, ...stop }),
    ],
    onTrade: (ctx, trade) => {
      const open = ctx.trailingStops(BTC)[0];
      levels.push(`${trade.ts}:${open?.status ?? '-'}:${open?.stopPrice?.toString() ?? '-'}`);
      return options.onTrade?.(ctx, trade.ts);
    },
    onTrailingStop: (_ctx, update) => {
      updates.push(update);
    },
    onDenied: (_ctx, denial) => {
      denials.push(denial);
    },
  });
  return { strategy, updates, denials, levels };
}

const statuses = (updates: readonly TrailingStop[]) => updates.map((u) => `${u.updateAt}:${u.status}`);

const aMark = (ts: number, markPrice: number): MarkPriceEvent => ({
  kind: 'markPrice',
  sym: BTC,
  ts,
  recvTs: ts,
  markPrice,
});

const placed = (submitted: readonly { intent: unknown }[]) =>
  submitted.map((c) => c.intent as PlaceOrderIntent).filter((i) => i.kind === 'placeOrder');

describe('emulated trailing stop', () => {
  it('a SELL stop 5 ticks under the highest last price sells the long at market when the price falls to it', () => {
    const t = stopper({ side: 'SELL', qty: 1, offset: { ticks: 5 } }, { entry: 'BUY' });
    const rig = aKernelRig([{ id: 's', strategy: t.strategy }]);
    // 100.0 -> stop 99.5; 101.2 -> 100.7; 100.9 no; 100.7 crosses.
    for (const [ts, price] of [
      [1, 100],
      [2, 101.2],
      [3, 100.9],
      [4, 100.7],
      [5, 99],
    ] as const)
      rig.market.next(aTrade(ts, price));
    expect(statuses(t.updates)).toEqual(['0:PENDING', '1:ACTIVE', '4:TRIGGERED']);
    expect(t.levels).toEqual(['1:ACTIVE:99.5', '2:ACTIVE:100.7', '3:ACTIVE:100.7', '4:-:-', '5:-:-']);
    const triggered = t.updates[2] as TrailingStop;
    expect(triggered.stopPrice?.toString()).toBe('100.7');
    expect(triggered.crossPrice).toBe(100.7);
    expect(triggered.bestPrice).toBeCloseTo(101.2, 9);
    const orders = placed(rig.venue.submitted);
    expect(orders).toHaveLength(2);
    const exit = orders[1] as PlaceOrderIntent;
    expect(exit).toMatchObject({ ref: 's-2', side: 'SELL', orderType: 'MARKET', reduceOnly: true });
    expect(exit.qty.toString()).toBe('1');
    expect(exit.trailingStop).toBeUndefined();
    // The in-memory venue fills at the last price pushed: 100.7, and the long is flat.
    expect(rig.venue.orders.get('s-2')).toMatchObject({ orderState: 'FILLED' });
    expect(rig.venue.orders.get('s-2')?.executedAvgPrice.toString()).toBe('100.7');
    expect(t.denials).toEqual([]);
  });

  it('a reduce-only stop sends no more than the position left after a partial exit, and one that may open sends its qty', () => {
    const partial = (ctx: Ctx, ts: number) =>
      ts === 2 ? ctx.order.market({ sym: BTC, side: 'SELL', qty: 0.4, reduceOnly: true }) : undefined;
    const exits = (reduceOnly: boolean) => {
      const t = stopper(
        { side: 'SELL', qty: 1, offset: { ticks: 5 }, reduceOnly },
        { entry: 'BUY', onTrade: partial },
      );
      const rig = aKernelRig([{ id: 's', strategy: t.strategy }], { gate: new RiskGate() });
      for (const [ts, price] of [
        [1, 100],
        [2, 101],
        [3, 100],
      ] as const)
        rig.market.next(aTrade(ts, price));
      expect(t.denials).toEqual([]);
      return placed(rig.venue.submitted).map((o) => `${o.ref} ${o.side} ${o.qty.toFixed()} ${o.reduceOnly}`);
    };
    // Long 1, sold 0.4: the stop sized at 1 sells the 0.6 left (a US equity's venue would not trim 1).
    expect(exits(true)).toEqual(['s-1 BUY 1 false', 's-3 SELL 0.4 true', 's-2 SELL 0.6 true']);
    expect(exits(false)).toEqual(['s-1 BUY 1 false', 's-3 SELL 0.4 true', 's-2 SELL 1 false']);
  });

  it('a BUY stop of 100 bps activated at 95 covers the short when the price rises back to it', () => {
    const t = stopper({ side: 'BUY', qty: 1, offset: { bps: 100 }, activationPrice: 95 }, { entry: 'SELL' });
    const rig = aKernelRig([{ id: 's', strategy: t.strategy }]);
    // 100, 96: not yet at 95. 95: active, stop 95 * 1.01 = 95.95, rounded away from the market to 96.0.
    // 94: stop 94 * 1.01 = 94.94 -> 95.0. 94.9: no. 95.0: crosses.
    for (const [ts, price] of [
      [1, 100],
      [2, 96],
      [3, 95],
      [4, 94],
      [5, 94.9],
      [6, 95],
    ] as const)
      rig.market.next(aTrade(ts, price));
    expect(statuses(t.updates)).toEqual(['0:PENDING', '3:ACTIVE', '6:TRIGGERED']);
    expect(t.levels).toEqual([
      '1:PENDING:-',
      '2:PENDING:-',
      '3:ACTIVE:96',
      '4:ACTIVE:95',
      '5:ACTIVE:95',
      '6:-:-',
    ]);
    expect(t.updates[2]?.crossPrice).toBe(95);
    const exit = placed(rig.venue.submitted)[1] as PlaceOrderIntent;
    expect(exit).toMatchObject({ ref: 's-2', side: 'BUY', orderType: 'MARKET', reduceOnly: true });
  });

  it('trails the mark price when told, and ignores trades then', () => {
    const t = stopper({ side: 'SELL', qty: 1, offset: { price: 2 }, triggerOn: 'mark' }, { entry: 'BUY' });
    const rig = aKernelRig([{ id: 's', strategy: t.strategy }]);
    rig.market.next(aMark(1, 100)); // stop 98
    rig.market.next(aTrade(2, 90)); // a trade: not the trigger source
    rig.market.next(aMark(3, 104.3)); // stop 102.3
    rig.market.next(aMark(4, 102.31));
    expect(statuses(t.updates)).toEqual(['0:PENDING', '1:ACTIVE']);
    rig.market.next(aMark(5, 102.3));
    expect(statuses(t.updates)).toEqual(['0:PENDING', '1:ACTIVE', '5:TRIGGERED']);
    expect(t.updates[2]?.stopPrice?.toString()).toBe('102.3');
  });

  it('trails the bid for a SELL stop on bidAsk', () => {
    const t = stopper({ side: 'SELL', qty: 1, offset: { ticks: 10 }, triggerOn: 'bidAsk' }, { entry: 'BUY' });
    const rig = aKernelRig([{ id: 's', strategy: t.strategy }]);
    rig.market.next(aQuote(1, 100, 100.5)); // bid 100: stop 99
    rig.market.next(aQuote(2, 99.1, 99.0 + 5)); // ask far above: no matter
    rig.market.next(aQuote(3, 99, 99.2)); // bid 99 crosses
    expect(statuses(t.updates)).toEqual(['0:PENDING', '1:ACTIVE', '3:TRIGGERED']);
    expect(t.updates[2]?.crossPrice).toBe(99);
  });

  it('starts trailing from the last price the kernel already has when the stop is placed', () => {
    const updates: TrailingStop[] = [];
    const strategy = defineStrategy({
      name: 'late',
      params: z.object({}),
      onTrade: (ctx, trade) =>
        trade.ts === 2
          ? ctx.order.trailingStop({ sym: BTC, side: 'SELL', qty: 1, offset: { ticks: 3 } })
          : undefined,
      onTrailingStop: (_ctx, u) => {
        updates.push(u);
      },
    });
    const rig = aKernelRig([{ id: 's', strategy }]);
    rig.market.next(aTrade(1, 50));
    rig.market.next(aTrade(2, 100));
    expect(updates.map((u) => `${u.status}:${u.stopPrice?.toString() ?? '-'}`)).toEqual([
      'PENDING:-',
      'ACTIVE:99.7',
    ]);
  });

  it('on bar-only data a BUY stop walks each closed bar open, low, high, close (favourable extreme first)', () => {
    const t = stopper({ side: 'BUY', qty: 1, offset: { ticks: 10 }, reduceOnly: false });
    const rig = aKernelRig([{ id: 's', strategy: t.strategy }]);
    // Bar 1: 100 (active, stop 101), 99.5 (stop 100.5), 100.3, 99.6.
    rig.market.next(aFeedBar(0, [100, 100.3, 99.5, 99.6, 1]));
    expect(statuses(t.updates)).toEqual(['0:PENDING', '60000:ACTIVE']);
    expect(rig.venue.submitted).toEqual([]);
    // Bar 2: 99.6, its low 99.4 (stop 100.4), then its high 100.4 reaches the stop: triggered at
    // the bar's close. Walked high before low, the high would have met the stop of 100.5 and missed.
    rig.market.next(aFeedBar(60_000, [99.6, 100.4, 99.4, 100, 1]));
    expect(statuses(t.updates)).toEqual(['0:PENDING', '60000:ACTIVE', '120000:TRIGGERED']);
    expect(t.updates[2]).toMatchObject({ crossPrice: 100.4 });
    expect(t.updates[2]?.stopPrice?.toString()).toBe('100.4');
    expect(placed(rig.venue.submitted)).toHaveLength(1);
  });

  it('ignores bars on a sym that has trades: the trades are the finer path', () => {
    const t = stopper({ side: 'SELL', qty: 1, offset: { ticks: 5 } }, { entry: 'BUY' });
    const rig = aKernelRig([{ id: 's', strategy: t.strategy }]);
    rig.market.next(aTrade(1, 100)); // stop 99.5
    rig.market.next(aFeedBar(0, [100, 100, 90, 100, 1]));
    expect(statuses(t.updates)).toEqual(['0:PENDING', '1:ACTIVE']);
  });

  it('a stop cancelled before the price crosses it sends nothing', () => {
    const t = stopper(
      { side: 'SELL', qty: 1, offset: { ticks: 5 } },
      { entry: 'BUY', onTrade: (ctx, ts) => (ts === 2 ? ctx.order.cancel('s-2') : undefined) },
    );
    const rig = aKernelRig([{ id: 's', strategy: t.strategy }]);
    rig.market.next(aTrade(1, 100));
    rig.market.next(aTrade(2, 100.2));
    rig.market.next(aTrade(3, 90));
    expect(statuses(t.updates)).toEqual(['0:PENDING', '1:ACTIVE', '2:CANCELLED']);
    // The emulator takes the trade at 100.2 before the strategy does: the stop was 99.7 when cancelled.
    expect(t.updates[2]?.stopPrice?.toString()).toBe('99.7');
    expect(placed(rig.venue.submitted)).toHaveLength(1);
    expect(t.denials).toEqual([]);
    expect(t.levels).toEqual(['1:ACTIVE:99.5', '2:ACTIVE:99.7', '3:-:-']);
  });

  it('cancelMany() without targets cancels the strategy’s trailing stops too', () => {
    const t = stopper(
      { side: 'SELL', qty: 1, offset: { ticks: 5 } },
      { entry: 'BUY', onTrade: (ctx, ts) => (ts === 2 ? ctx.order.cancelMany({ sym: BTC }) : undefined) },
    );
    const rig = aKernelRig([{ id: 's', strategy: t.strategy }]);
    rig.market.next(aTrade(1, 100));
    rig.market.next(aTrade(2, 100));
    rig.market.next(aTrade(3, 90));
    expect(statuses(t.updates)).toEqual(['0:PENDING', '1:ACTIVE', '2:CANCELLED']);
    expect(placed(rig.venue.submitted)).toHaveLength(1);
  });

  it('closing the position cancels the reduce-only stops on that sym (as the venue cancels reduce-only orders), not the others', () => {
    const updates: TrailingStop[] = [];
    const strategy = defineStrategy({
      name: 'closer',
      params: z.object({}),
      onStart: (ctx) => [
        ctx.order.market({ sym: BTC, side: 'BUY', qty: 1 }),
        ctx.order.trailingStop({ sym: BTC, side: 'SELL', qty: 1, offset: { ticks: 5 } }),
        ctx.order.trailingStop({ sym: BTC, side: 'SELL', qty: 1, offset: { ticks: 9 }, reduceOnly: false }),
      ],
      onTrade: (ctx, trade) => (trade.ts === 2 ? ctx.order.closePosition(BTC) : undefined),
      onTrailingStop: (_ctx, u) => {
        updates.push(u);
      },
    });
    const rig = aKernelRig([{ id: 's', strategy }]);
    rig.market.next(aTrade(1, 100));
    rig.market.next(aTrade(2, 100));
    expect(updates.map((u) => `${u.ref}:${u.status}`)).toEqual([
      's-2:PENDING',
      's-3:PENDING',
      's-2:ACTIVE',
      's-3:ACTIVE',
      's-2:CANCELLED',
    ]);
  });

  it("a close of the sym cancels another strategy's reduce-only stops there too, and tells their owner", () => {
    const closer = defineStrategy({
      name: 'closer',
      params: z.object({}),
      onStart: (ctx) => ctx.order.market({ sym: BTC, side: 'BUY', qty: 1 }),
      onTrade: (ctx, trade) => (trade.ts === 2 ? ctx.order.closePosition(BTC) : undefined),
    });
    const other = stopper({ side: 'SELL', qty: 1, offset: { ticks: 5 } });
    const keeper = stopper({ side: 'SELL', qty: 1, offset: { ticks: 9 }, reduceOnly: false });
    const rig = aKernelRig([
      { id: 'a', strategy: closer },
      { id: 'b', strategy: other.strategy },
      { id: 'c', strategy: keeper.strategy },
    ]);
    rig.market.next(aTrade(1, 100));
    rig.market.next(aTrade(2, 100));
    // B's reduce-only stop goes with the close (it would otherwise fire on a later position); C's
    // stop that may open a position stays.
    expect(statuses(other.updates)).toEqual(['0:PENDING', '1:ACTIVE', '2:CANCELLED']);
    expect(statuses(keeper.updates)).toEqual(['0:PENDING', '1:ACTIVE']);
  });

  it('a triggered stop whose market order the risk gate denies reaches onDenied under the stop’s reference', () => {
    // No position: the reduce-only market order of the stop reduces nothing.
    const t = stopper({ side: 'SELL', qty: 1, offset: { ticks: 5 } });
    const rig = aKernelRig([{ id: 's', strategy: t.strategy }], { gate: new RiskGate() });
    rig.market.next(aTrade(1, 100));
    rig.market.next(aTrade(2, 99.5));
    expect(statuses(t.updates)).toEqual(['0:PENDING', '1:ACTIVE', '2:TRIGGERED']);
    expect(rig.venue.submitted).toEqual([]);
    expect(t.denials).toHaveLength(1);
    expect(t.denials[0]).toMatchObject({ ref: 's-1', source: 'risk', check: 'reduceOnly', ts: 2 });
    expect(t.denials[0]?.intent).toMatchObject({ kind: 'placeOrder', orderType: 'MARKET' });
  });

  it('refuses a stop it cannot emulate with a kernel denial, and another strategy cannot cancel one', () => {
    const denials: IntentDenied[] = [];
    const bad = defineStrategy({
      name: 'bad',
      params: z.object({}),
      onStart: (ctx) => [
        ctx.order.trailingStop({ sym: 'NOPE', side: 'SELL', qty: 1, offset: { ticks: 5 } }),
        ctx.order.trailingStop({ sym: BTC, side: 'SELL', qty: 1, offset: { ticks: 0 } }),
        ctx.order.cancel('a-1'),
      ],
      onDenied: (_ctx, d) => {
        denials.push(d);
      },
    });
    const owner = stopper({ side: 'SELL', qty: 1, offset: { ticks: 5 } });
    const rig = aKernelRig([
      { id: 'a', strategy: owner.strategy },
      { id: 'b', strategy: bad },
    ]);
    rig.market.next(aTrade(1, 100));
    expect(denials.map((d) => `${d.ref}:${d.check}`)).toEqual([
      'b-1:kernel.trailingStop',
      'b-2:kernel.trailingStop',
      'b-3:kernel.ownership',
    ]);
    expect(denials[0]?.reason).toMatch(/NOPE, which is not an instrument/);
    expect(denials[1]?.reason).toMatch(/offset > 0/);
    expect(statuses(owner.updates)).toEqual(['0:PENDING', '1:ACTIVE']);
  });

  it('refuses a stop with a side or trigger outside its values (a "sell" would trail as a buy)', () => {
    const denials: IntentDenied[] = [];
    const typo = defineStrategy({
      name: 'typo',
      params: z.object({}),
      onStart: (ctx) => [
        ctx.order.trailingStop({ sym: BTC, side: 'sell' as 'SELL', qty: 1, offset: { ticks: 5 } }),
        ctx.order.trailingStop({
          sym: BTC,
          side: 'SELL',
          qty: 1,
          offset: { ticks: 5 },
          triggerOn: 'Last' as 'last',
        }),
      ],
      onDenied: (_ctx, d) => {
        denials.push(d);
      },
    });
    const rig = aKernelRig([{ id: 'b', strategy: typo }]);
    rig.market.next(aTrade(1, 100));
    expect(denials.map((d) => `${d.ref}:${d.check}: ${d.reason}`)).toEqual([
      'b-1:kernel.trailingStop: trailing stop b-1 is refused: side "sell" is not one of BUY, SELL',
      'b-2:kernel.trailingStop: trailing stop b-2 is refused: trailingStop.triggerOn "Last" is not one of last, mark, bidAsk',
    ]);
  });

  it('the factory refuses an offset without exactly one of price, ticks, bps', () => {
    let thrown: unknown;
    const strategy = defineStrategy({
      name: 'f',
      params: z.object({}),
      onStart: (ctx) => {
        try {
          ctx.order.trailingStop({ sym: BTC, side: 'SELL', qty: 1, offset: {} as never });
        } catch (error) {
          thrown = error;
        }
      },
    });
    aKernelRig([{ id: 's', strategy }]);
    expect(String(thrown)).toMatch(/exactly one of price, ticks or bps/);
  });
});
