import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../core/kernel/index.ts';
import { grid, marketMaker, smaCross, twap } from '../../strategies/index.ts';
import { BTC } from '../kit/kernel-events.ts';
import { aBar, aMark, aQuote } from '../kit/sim-builders.ts';
import { aStrategyRig, type StrategyRig } from '../kit/strategy-rig.ts';

const MINUTE = 60_000;

/** Puts the portfolio in BOTH (hedge) mode at start, as a plugin of a run may. */
const toBoth = defineStrategy({
  name: 'to-both',
  params: z.object({}).strict(),
  onStart: (ctx) => ctx.order.setPositionMode('BOTH'),
});

const BOTH = { id: 'mode', strategy: toBoth, params: {} };

function legs(rig: StrategyRig): string {
  const { state } = rig.kernel;
  return `LONG ${state.positionQty(BTC, 'LONG').toFixed()} SHORT ${state.positionQty(BTC, 'SHORT').toFixed()}`;
}

function placed(rig: StrategyRig): string[] {
  return rig
    .sentOf('placeOrder')
    .map((p) => `${p.side} ${p.qty.toFixed()} ${p.positionSide}${p.reduceOnly ? ' reduceOnly' : ''}`);
}

function closesFrom(first: number, ...prices: number[]) {
  return prices.flatMap((close, i) => {
    const ts = (first + i) * MINUTE;
    return [aMark(ts, close), aBar(ts, close, close, close, close)];
  });
}

describe('built-in strategies in BOTH (hedge) position mode', () => {
  it('sma-cross reverses by closing the LONG leg, then opening SHORT: the net fills of NET mode', async () => {
    const params = { sym: BTC, fast: 2, slow: 3, fraction: 0.5 };
    const both = await aStrategyRig([BOTH, { id: 'sma', strategy: smaCross, params }]);
    const net = await aStrategyRig([{ id: 'sma', strategy: smaCross, params }]);
    for (const rig of [both, net]) rig.push(...closesFrom(1, 1000, 1000, 900, 1200, 500));
    expect(both.kernel.state.positionMode()).toBe('BOTH');
    expect(placed(both)).toEqual(['BUY 4.166 LONG', 'SELL 4.166 LONG reduceOnly', 'SELL 7.081 SHORT']);
    expect(legs(both)).toBe('LONG 0 SHORT -7.081');
    expect(placed(net)).toEqual(['BUY 4.166 NONE', 'SELL 11.247 NONE']);
    expect(both.kernel.state.netQty(BTC).toFixed()).toBe(net.kernel.state.netQty(BTC).toFixed());
    expect(both.denials).toEqual([]);
  });

  it('market-maker keeps its inventory on one leg, within maxPosition, whatever the quotes do', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: -3, max: 3 }), { minLength: 20, maxLength: 120 }),
        async (steps) => {
          const params = { sym: BTC, qty: 0.01, maxPosition: 0.03, halfSpreadTicks: 1, skewTicksPerUnit: 0 };
          const rig = await aStrategyRig([BOTH, { id: 'mm', strategy: marketMaker, params }]);
          let ticks = 100_000;
          let worst = 0;
          for (const [i, step] of steps.entries()) {
            ticks += step;
            rig.push(aQuote((i + 1) * 1000, ticks / 10, 1, (ticks + 1) / 10, 1));
            const long = rig.kernel.state.positionQty(BTC, 'LONG').toNumber();
            const short = rig.kernel.state.positionQty(BTC, 'SHORT').toNumber();
            worst = Math.max(worst, long, -short);
          }
          expect(rig.faults).toEqual([]);
          expect(worst).toBeLessThanOrEqual(0.03 + 1e-9);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('twap closes the opposite leg first, then opens its own with the rest', async () => {
    const seller = defineStrategy({
      name: 'seller',
      params: z.object({}).strict(),
      state: () => ({ sent: false }),
      onQuote: (ctx) => {
        if (ctx.state.sent || ctx.positionMode() !== 'BOTH') return undefined;
        ctx.state.sent = true;
        return ctx.order.market({ sym: BTC, side: 'SELL', qty: '0.5', positionSide: 'SHORT' });
      },
    });
    const params = { sym: BTC, side: 'BUY', totalQty: 1, durationMs: 2000, slices: 1 };
    const rig = await aStrategyRig([
      BOTH,
      { id: 's', strategy: seller, params: {} },
      { id: 't', strategy: twap, params },
    ]);
    rig.push(aQuote(0, 1000, 5, 1000.1, 5));
    rig.push(aQuote(2500, 1000, 5, 1000.1, 5));
    expect(placed(rig)).toEqual(['SELL 0.5 SHORT', 'BUY 0.5 SHORT reduceOnly', 'BUY 0.5 LONG']);
    expect(legs(rig)).toBe('LONG 0.5 SHORT 0');
  });

  it('grid halts with the reason instead of laying a ladder that opens both legs', async () => {
    const params = { sym: BTC, levels: 2, stepTicks: 10, qtyPerLevel: 0.01 };
    const rig = await aStrategyRig([BOTH, { id: 'grid', strategy: grid, params }]);
    rig.push(aQuote(1000, 1000, 5, 1000.1, 5));
    expect(rig.sentOf('placeOrder')).toEqual([]);
    expect(rig.faults).toHaveLength(1);
    expect(rig.faults[0]).toMatch(
      /^grid:onQuote:Error: grid: the portfolio is in BOTH \(hedge\) position mode/,
    );
  });
});
