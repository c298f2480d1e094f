import { filter, map } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy, type StrategySlot, sma } from '../../../core/kernel/index.ts';
import { aKernelRig, type KernelRig } from '../../kit/kernel-builders.ts';
import { aTrade, BTC } from '../../kit/kernel-events.ts';

// The two @example blocks of defineStrategy, verbatim but for the periods (3 and 5 instead of
// 10 and 30, to keep the feed short): if the documentation stops compiling or working, this fails.
const hookStyle = defineStrategy({
  name: 'sma-cross',
  params: z.object({ sym: z.string(), fast: z.number().int().default(3), slow: z.number().int().default(5) }),
  state: (p) => ({ fast: sma(p.fast), slow: sma(p.slow) }),
  onStart: (ctx) => ctx.watchBars(ctx.params.sym, '1m'),
  onBar: (ctx, bar) => {
    const fast = ctx.state.fast.update(bar.close);
    const slow = ctx.state.slow.update(bar.close);
    if (fast === undefined || slow === undefined || ctx.openOrders().length > 0) return;
    if (fast > slow && ctx.netQty(bar.sym).isZero()) {
      return ctx.order.limit({ sym: bar.sym, side: 'BUY', qty: 1, price: bar.close, round: true });
    }
  },
  onDenied: (ctx, denial) => console.warn(`${ctx.id}: ${denial.check}: ${denial.reason}`),
});

const reactiveStyle = defineStrategy({
  name: 'sma-cross-rx',
  params: z.object({ sym: z.string() }),
  setup: (ctx) => {
    const fast = sma(3);
    const slow = sma(5);
    return ctx.bars(ctx.params.sym, '1m').pipe(
      map((bar) => ({ bar, f: fast.update(bar.close), s: slow.update(bar.close) })),
      filter(({ f, s }) => f !== undefined && s !== undefined && f > s),
      filter(({ bar }) => ctx.openOrders().length === 0 && ctx.netQty(bar.sym).isZero()),
      map(({ bar }) => ctx.order.market({ sym: bar.sym, side: 'BUY', qty: 1 })),
    );
  },
});

/** One trade per minute: falling for six minutes, then rising. */
const closes = [110, 108, 106, 104, 102, 100, 103, 107, 112, 118];

/** Runs one strategy through those trades, then on to the close of the last minute's bar. */
function runOnCloses(slot: StrategySlot): KernelRig {
  const rig = aKernelRig([slot]);
  closes.forEach((price, minute) => {
    rig.kernel.push(aTrade(minute * 60_000 + 1_000, price));
  });
  rig.kernel.advanceTime(closes.length * 60_000);
  return rig;
}

describe('defineStrategy documentation examples', () => {
  it('hook style: buys once the fast SMA of 1m closes is above the slow one, not before warm-up', () => {
    const rig = runOnCloses({ id: 'hook', strategy: hookStyle, params: { sym: BTC } });
    expect(
      rig.venue.submitted.map((c) => [
        c.intent.kind,
        c.intent.kind === 'placeOrder' && c.intent.price?.toFixed(),
      ]),
    ).toEqual([['placeOrder', '107']]);
  });

  it('reactive style: the same signal as a stream of intents', () => {
    const rig = runOnCloses({ id: 'rx', strategy: reactiveStyle, params: { sym: BTC } });
    expect(
      rig.venue.submitted.map(
        (c) => `${c.intent.kind} ${c.intent.kind === 'placeOrder' && c.intent.orderType}`,
      ),
    ).toEqual(['placeOrder MARKET']);
    expect(rig.kernel.state.positionQty(BTC, 'NONE').toFixed()).toBe('1');
  });
});
