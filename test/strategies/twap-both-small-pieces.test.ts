import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../core/kernel/index.ts';
import { twap } from '../../strategies/index.ts';
import { BTC } from '../kit/kernel-events.ts';
import { aQuote } from '../kit/sim-builders.ts';
import { aStrategyRig } from '../kit/strategy-rig.ts';

const toBoth = defineStrategy({
  name: 'to-both',
  params: z.object({}).strict(),
  onStart: (ctx) => ctx.order.setPositionMode('BOTH'),
});

function seller(positionSide: 'SHORT' | 'NONE', qty = '0.497') {
  return defineStrategy({
    name: 'seller',
    params: z.object({}).strict(),
    state: () => ({ sent: false }),
    onQuote: (ctx) => {
      if (ctx.state.sent) return undefined;
      if (positionSide === 'SHORT' && ctx.positionMode() !== 'BOTH') return undefined;
      ctx.state.sent = true;
      return ctx.order.market({ sym: BTC, side: 'SELL', qty, positionSide });
    },
  });
}

const shrinker = defineStrategy({
  name: 'shrinker',
  params: z.object({}).strict(),
  state: () => ({ step: 0 }),
  onQuote: (ctx) => {
    if (ctx.positionMode() !== 'BOTH' || ctx.state.step >= 2) return undefined;
    ctx.state.step += 1;
    return ctx.state.step === 1
      ? ctx.order.market({ sym: BTC, side: 'SELL', qty: '0.008', positionSide: 'SHORT' })
      : ctx.order.market({ sym: BTC, side: 'BUY', qty: '0.005', positionSide: 'SHORT', reduceOnly: true });
  },
});

// minNotional 5 at a price of ~1000: a piece of 0.003 (3 USDT) would be denied on its own.
describe('twap in BOTH mode, a slice next to an opposite leg (ctx.order.legs leaves out pieces below the minimum)', () => {
  it('closes the opposite leg without a denied 0.003 opening piece (NET nets to 0.003)', async () => {
    const params = { sym: BTC, side: 'BUY', totalQty: 0.5, durationMs: 2000, slices: 1 };
    const net = await aStrategyRig([
      { id: 's', strategy: seller('NONE'), params: {} },
      { id: 't', strategy: twap, params },
    ]);
    const both = await aStrategyRig([
      { id: 'mode', strategy: toBoth, params: {} },
      { id: 's', strategy: seller('SHORT'), params: {} },
      { id: 't', strategy: twap, params },
    ]);
    for (const rig of [net, both]) {
      rig.push(aQuote(0, 1000, 5, 1000.1, 5));
      rig.push(aQuote(2500, 1000, 5, 1000.1, 5));
    }
    expect(net.denials).toEqual([]);
    expect(net.kernel.state.netQty(BTC).toFixed()).toBe('0.003');
    // BOTH mode: closes 0.497 SHORT reduce-only; the 0.003 LONG it would open is left out
    expect(both.denials).toEqual([]);
    expect(both.kernel.state.netQty(BTC).toFixed()).toBe('0');
    expect(both.kernel.state.positionQty(BTC, 'LONG').toFixed()).toBe('0');
  });

  it('trades the slice on its own leg when the opposite leg is too small to close (held SHORT 0.003)', async () => {
    const params = { sym: BTC, side: 'BUY', totalQty: 0.5, durationMs: 2000, slices: 1 };
    const both = await aStrategyRig([
      { id: 'mode', strategy: toBoth, params: {} },
      { id: 's', strategy: shrinker, params: {} },
      { id: 't', strategy: twap, params },
    ]);
    both.push(aQuote(0, 1000, 5, 1000.1, 5));
    both.push(aQuote(500, 1000, 5, 1000.1, 5));
    both.push(aQuote(2500, 1000, 5, 1000.1, 5));
    const { state } = both.kernel;
    // a reduce-only 0.003 close would be denied on every slice: the slice opens LONG whole instead
    expect(both.denials).toEqual([]);
    expect(state.positionQty(BTC, 'LONG').toFixed()).toBe('0.5');
    expect(state.positionQty(BTC, 'SHORT').toFixed()).toBe('-0.003');
  });
});
