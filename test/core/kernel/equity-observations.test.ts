import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy, MARKET_OBSERVATION_MS } from '../../../core/kernel/index.ts';
import type { Dec, MarketEvent } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { anAccountUpdate, aQuote, BTC } from '../../kit/kernel-events.ts';

const DAY = 86_400_000;

/** A gate that records the times it was shown equity (and, optionally, says it ignores equity). */
function recordingGate(watches = true) {
  const seen: number[] = [];
  const real = new RiskGate();
  return {
    seen,
    gate: {
      evaluate: (intent: Parameters<RiskGate['evaluate']>[0], view: Parameters<RiskGate['evaluate']>[1]) =>
        real.evaluate(intent, view),
      observeEquity: (now: number, _equity: Dec) => seen.push(now),
      watchesEquity: () => watches,
    },
  };
}

describe('kernel: equity observations market data makes for the kill switch', () => {
  it('observes at most once per MARKET_OBSERVATION_MS of kernel time, on the kernel clock', () => {
    const { gate, seen } = recordingGate();
    const rig = aKernelRig([], { gate, start: 1_000 });
    for (const ts of [1_000, 1_400, 1_999, 2_000, 2_500, 3_100, 3_200, 9_000])
      rig.market.next(aQuote(ts, 100));
    expect(MARKET_OBSERVATION_MS).toBe(1000);
    expect(seen).toEqual([1_000, 2_000, 3_100, 9_000]);
  });

  it("does not let a fill's or account update's observation put off the market's next look", () => {
    const { gate, seen } = recordingGate();
    const rig = aKernelRig([], { gate });
    rig.market.next(aQuote(0, 100));
    rig.kernel.push(anAccountUpdate(600, '1000'));
    rig.market.next(aQuote(1_200, 100));
    rig.market.next(aQuote(1_600, 100));
    // On bars, a fill at a bar's open comes just before that bar: its close is looked at too, not
    // a bar later.
    rig.kernel.push(anAccountUpdate(60_000, '1000'));
    rig.market.next(aQuote(60_000, 100));
    rig.market.next(aQuote(60_500, 100));
    expect(seen).toEqual([0, 600, 1_200, 60_000, 60_000]);
  });

  it("observes at a new UTC day's first market event, whenever the last look was", () => {
    const { gate, seen } = recordingGate();
    const rig = aKernelRig([], { gate, start: DAY - 500 });
    for (const ts of [DAY - 500, DAY - 1, DAY, DAY + 10]) rig.market.next(aQuote(ts, 100));
    expect(seen).toEqual([DAY - 500, DAY]);
  });

  it('computes nothing for a gate that ignores equity', () => {
    const { gate, seen } = recordingGate(false);
    const rig = aKernelRig([], { gate });
    for (const ts of [0, 1_000, 2_000]) rig.market.next(aQuote(ts, 100));
    expect(seen).toEqual([]);
  });

  it('does not judge the prices of a warm-up on history', async () => {
    const { gate, seen } = recordingGate();
    const history: MarketEvent[] = [aQuote(1_000, 100), aQuote(3_000, 100), aQuote(5_000, 100)];
    const strategy = defineStrategy({ name: 'idle', params: z.object({}) });
    const rig = aKernelRig([{ id: 's', strategy }], {
      gate,
      start: 10_000,
      warmUp: {
        periodMs: 9_000,
        history: (async function* () {
          yield history;
        })(),
      },
    });
    await rig.kernel.whenTrading();
    expect(seen).toEqual([]);
    rig.market.next(aQuote(10_000, 100, 101, BTC));
    expect(seen).toEqual([10_000]);
  });

  it('trips a real gate on a loss the market alone makes between intents', () => {
    const gate = new RiskGate({ killSwitch: { dailyLossLimit: '50' } });
    const strategy = defineStrategy({
      name: 'buyer',
      params: z.object({}),
      onQuote: (ctx, quote) =>
        quote.ts === 0 ? ctx.order.market({ sym: BTC, side: 'BUY', qty: 10 }) : undefined,
    });
    const rig = aKernelRig([{ id: 's', strategy }], { gate });
    rig.kernel.push(anAccountUpdate(0, '100000'));
    rig.market.next(aQuote(0, 100));
    rig.market.next(aQuote(2_000, 94, 95));
    expect(gate.status()).toMatchObject({ state: 'HALTED', since: 2_000 });
  });
});
