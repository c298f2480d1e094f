import { filter, map, merge } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy, seededRandom, sma } from '../../../core/kernel/index.ts';
import type { MarketEvent } from '../../../core/model/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aQuote, aTrade, BTC, ETH } from '../../kit/kernel-events.ts';

/** Synthetic quotes and trades on two syms: a seeded random walk. */
function syntheticSession(seed: number, count: number): MarketEvent[] {
  const rng = seededRandom(seed);
  const events: MarketEvent[] = [];
  let btc = 1000;
  let eth = 500;
  for (let i = 0; i < count; i++) {
    const ts = 1_000 + i * 700;
    btc = Math.round((btc + (rng.next() - 0.5) * 4) * 10) / 10;
    eth = Math.round((eth + (rng.next() - 0.5) * 2) * 10) / 10;
    events.push(rng.next() < 0.5 ? aQuote(ts, btc, btc + 0.1) : aTrade(ts, btc, Math.ceil(rng.next() * 3)));
    events.push(aQuote(ts, eth, eth + 0.1, ETH));
  }
  return events;
}

/** A busy strategy: bars, an indicator, timers, limit orders, cancels, market orders, denials. */
const busy = defineStrategy({
  name: 'busy',
  params: z.object({ sym: z.string() }),
  state: () => ({ fast: sma(3), lastBuy: 0 }),
  onStart: (ctx) => {
    ctx.watchBars(ctx.params.sym, '1m');
    ctx.every(45_000, 'requote');
  },
  onBar: (ctx, bar) => {
    const fast = ctx.state.fast.update(bar.close);
    if (fast !== undefined && bar.close > fast) {
      return ctx.order.market({ sym: bar.sym, side: 'BUY', qty: '0.01' });
    }
  },
  onTimer: (ctx) => {
    const quote = ctx.quote(ctx.params.sym);
    if (quote === undefined) return;
    return [
      ctx.order.cancelMany({ sym: ctx.params.sym }),
      ctx.order.limit({ sym: ctx.params.sym, side: 'BUY', qty: 0.013, price: quote.bid - 1.05, round: true }),
      ctx.order.limit({ sym: ctx.params.sym, side: 'SELL', qty: 1e-4, price: quote.ask + 1 }),
    ];
  },
  onQuote: (ctx, quote) => {
    if (quote.bid < 990 && ctx.now() - ctx.state.lastBuy > 60_000) {
      ctx.state.lastBuy = ctx.now();
      return ctx.order.ioc({ sym: quote.sym, side: 'BUY', qty: '0.02', price: quote.ask });
    }
  },
});

/** The reactive style in the same run: bars and timers merged into one intent stream. */
const streaming = defineStrategy({
  name: 'streaming',
  params: z.object({ sym: z.string() }),
  setup: (ctx) => {
    ctx.every(30_000, 'probe');
    const onBars = ctx.bars(ctx.params.sym, '1m').pipe(
      filter((bar) => bar.close > bar.open && ctx.openOrders().length < 3),
      map((bar) => ctx.order.limit({ sym: bar.sym, side: 'BUY', qty: 0.01, price: bar.low, round: true })),
    );
    const onTimers = ctx.timers().pipe(
      filter(() => ctx.openOrders().length > 0),
      map(() => ctx.order.cancel(ctx.openOrders()[0]?.clientOrderId ?? '')),
    );
    return merge(onBars, onTimers);
  },
});

function run(events: readonly MarketEvent[]): string[] {
  const rig = aKernelRig([
    { id: 'btc', strategy: busy, params: { sym: BTC } },
    { id: 'eth', strategy: busy, params: { sym: ETH } },
    { id: 'rx', strategy: streaming, params: { sym: BTC } },
  ]);
  for (const event of events) rig.market.next(event);
  const out = rig.venue.submitted.map((c) => `${c.strategyId} ${JSON.stringify(c.intent)}`);
  for (const d of rig.denials) out.push(`denied ${d.ref} ${d.check} @${d.ts}`);
  return out;
}

describe('kernel determinism', () => {
  it('gives the same intents in the same order on every run of the same strategy and events', () => {
    const events = syntheticSession(7, 2_000);
    const first = run(events);
    const second = run(events);
    expect(first.length).toBeGreaterThan(50);
    expect(first.some((line) => line.startsWith('denied'))).toBe(true);
    expect(first.some((line) => line.startsWith('rx {"kind":"cancelOrder"'))).toBe(true);
    expect(second).toEqual(first);
  });

  it('gives different intents for different events (the comparison can fail)', () => {
    expect(run(syntheticSession(8, 2_000))).not.toEqual(run(syntheticSession(7, 2_000)));
  });
});
