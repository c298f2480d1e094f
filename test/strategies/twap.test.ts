import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { twap } from '../../strategies/index.ts';
import { BTC } from '../kit/kernel-events.ts';
import { aQuote } from '../kit/sim-builders.ts';
import { aStrategyRig, type StrategyRigOptions } from '../kit/strategy-rig.ts';

/** Buy 1 BTC in 4 slices, one a second, one tick through the ask. */
const base = { sym: BTC, side: 'BUY', totalQty: 1, durationMs: 4000, slices: 4, aggressionTicks: 1 };

async function aTwap(params: object = {}, options: StrategyRigOptions = {}) {
  const rig = await aStrategyRig([{ id: 'twap', strategy: twap, params: { ...base, ...params } }], options);
  rig.push(aQuote(500, 100, 5, 100.2, 5));
  return rig;
}

function children(rig: Awaited<ReturnType<typeof aTwap>>): string[] {
  return rig
    .sentOf('placeOrder')
    .map((p) => `${p.side} ${p.qty.toFixed()} @ ${p.price?.toFixed(1)} ${p.timeInForce}`);
}

describe('twap strategy', () => {
  it('sends one IOC child per slice on its timer, sized totalQty / slices, one tick through the touch', async () => {
    const rig = await aTwap();
    rig.advance(999);
    expect(rig.sent).toEqual([]);
    rig.advance(1000);
    expect(children(rig)).toEqual(['BUY 0.25 @ 100.3 IOC']);
    for (const ts of [2000, 3000, 4000]) rig.advance(ts);
    expect(children(rig)).toHaveLength(4);
    expect((await rig.venueQty()).toFixed()).toBe('1');
    expect(rig.denials).toEqual([]);
  });

  it('stops after the last slice: nothing more is sent however long the run goes on', async () => {
    const rig = await aTwap();
    for (const ts of [1000, 2000, 3000, 4000, 5000, 6000, 10_000]) rig.advance(ts);
    expect(children(rig)).toHaveLength(4);
  });

  it('catches up after a slice the book could not fill, spreading the miss over the slices left', async () => {
    const rig = await aTwap();
    rig.advance(1000); // 0.25 filled
    rig.push(aQuote(1500, 100, 5, 100.2, 0.1)); // only 0.1 offered
    rig.advance(2000); // child 0.25, filled 0.1, rest cancelled (IOC)
    rig.push(aQuote(2500, 100, 5, 100.2, 5));
    rig.advance(3000); // (1 - 0.35) / 2
    rig.advance(4000); // the rest
    expect(children(rig).map((c) => c.split(' ')[1])).toEqual(['0.25', '0.25', '0.325', '0.325']);
    expect((await rig.venueQty()).toFixed()).toBe('1');
  });

  it('catches up after a slice whose price ran away, and prices each child from the latest touch', async () => {
    const rig = await aTwap();
    rig.advance(1000);
    rig.push(aQuote(1999, 100, 5, 100.2, 5));
    rig.push(aQuote(2000, 100.5, 5, 100.6, 5)); // the slice fires before this quote: its limit 100.3 misses
    rig.advance(3000);
    rig.advance(4000);
    expect(children(rig)).toEqual([
      'BUY 0.25 @ 100.3 IOC',
      'BUY 0.25 @ 100.3 IOC',
      'BUY 0.375 @ 100.7 IOC',
      'BUY 0.375 @ 100.7 IOC',
    ]);
    expect((await rig.venueQty()).toFixed()).toBe('1');
  });

  it('sells one tick through the bid', async () => {
    const rig = await aTwap({ side: 'SELL' });
    rig.advance(1000);
    expect(children(rig)).toEqual(['SELL 0.25 @ 99.9 IOC']);
  });

  it('skips a slice while its child is still unanswered and catches it up later, never oversending', async () => {
    const rig = await aTwap({}, { latencyMs: 1500 });
    rig.advance(1000); // child arrives at 2500
    rig.advance(2000); // still open: skipped
    rig.advance(3000); // filled at 2500: (1 - 0.25) / 2
    rig.advance(4000); // the last slice, but the 3000 child (arriving at 4500) is open: skipped
    rig.advance(5000); // past the window: the rest, once
    rig.advance(7000);
    rig.advance(9000);
    expect(children(rig).map((c) => c.split(' ')[1])).toEqual(['0.25', '0.375', '0.375']);
    expect((await rig.venueQty()).toFixed()).toBe('1');
  });

  it('never sends more than totalQty, whatever liquidity, prices and latency the slices meet', async () => {
    const slice = fc.record({
      askQty: fc.constantFrom(0, 0.01, 0.07, 0.2, 5),
      move: fc.integer({ min: -3, max: 3 }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(slice, { minLength: 8, maxLength: 8 }),
        fc.constantFrom(0, 300, 1500),
        fc.integer({ min: 1, max: 8 }),
        async (path, latencyMs, slices) => {
          const rig = await aTwap({ totalQty: 0.5, slices, durationMs: 8000 }, { latencyMs });
          let ask = 1002;
          let ts = 500;
          for (const s of path) {
            ask += s.move;
            ts += 1000;
            rig.push(aQuote(ts - 1, (ask - 2) / 10, 5, ask / 10, s.askQty));
            rig.advance(ts);
            const open = rig.kernel.state.openOrders('twap');
            const filled = (await rig.venueQty()).toNumber();
            const inFlight = open.reduce((sum, o) => sum + o.orderQty.sub(o.executedQty).toNumber(), 0);
            expect(filled + inFlight).toBeLessThanOrEqual(0.5 + 1e-9);
          }
          rig.advance(20_000);
          expect((await rig.venueQty()).toNumber()).toBeLessThanOrEqual(0.5);
          expect(rig.faults).toEqual([]);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('rejects nonsense parameters', () => {
    const parse = (p: object) => twap.params.safeParse({ ...base, ...p }).success;
    expect(parse({})).toBe(true);
    expect(parse({ side: 'HOLD' })).toBe(false);
    expect(parse({ totalQty: 0 })).toBe(false);
    expect(parse({ slices: 0 })).toBe(false);
    expect(parse({ durationMs: 3, slices: 4 })).toBe(false);
    expect(parse({ aggressionTicks: -1 })).toBe(false);
    expect(parse({ sym: '' })).toBe(false);
    expect(parse({ window: 3 })).toBe(false);
  });
});
