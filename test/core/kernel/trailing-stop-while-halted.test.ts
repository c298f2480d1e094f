import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { IntentDenied, TrailingStop } from '../../../core/kernel/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aTrade, BTC } from '../../kit/kernel-events.ts';

/** Places a SELL trailing stop (reduce-only unless told) on its first trade; records what it hears back. */
function trailer(reduceOnly = true) {
  const denials: IntentDenied[] = [];
  const stops: TrailingStop[] = [];
  const strategy = defineStrategy({
    name: 'trailer',
    params: z.object({}),
    onTrade: (ctx, trade) =>
      trade.ts === 1
        ? ctx.order.trailingStop({ sym: BTC, side: 'SELL', qty: 1, offset: { ticks: 5 }, reduceOnly })
        : undefined,
    onDenied: (_ctx, denial) => {
      denials.push(denial);
    },
    onTrailingStop: (_ctx, stop) => {
      stops.push(stop);
    },
  });
  return { strategy, denials, stops };
}

describe('an emulated trailing stop and the trading state', () => {
  it.each([
    ['the portfolio', undefined],
    ['the strategy', 's'],
  ])('is denied when placed while %s is HALTED, as any order is', (_who, strategyId) => {
    const gate = new RiskGate();
    gate.halt('operator: halt', strategyId, 0);
    const t = trailer();
    const rig = aKernelRig([{ id: 's', strategy: t.strategy }], { gate });
    rig.market.next(aTrade(1, 100));
    expect(t.stops).toEqual([]);
    expect(t.denials.map((d) => [d.source, d.check, d.intentKind])).toEqual([
      ['risk', 'tradingState', 'placeOrder'],
    ]);
    expect(t.denials[0]?.reason).toMatch(/trading is HALTED \(operator: halt\); only cancels pass/);
  });

  it('is accepted while trading is REDUCING when reduce-only, as a reduce-only algo order is: its order is judged again when it fires', () => {
    const gate = new RiskGate();
    gate.reduceOnly('operator: reduce');
    const t = trailer();
    const rig = aKernelRig([{ id: 's', strategy: t.strategy }], { gate });
    rig.market.next(aTrade(1, 100));
    expect(t.denials).toEqual([]);
    expect(t.stops[0]?.status).toBe('PENDING');
  });

  it('is denied when placed while trading is REDUCING when it may open a position', () => {
    const gate = new RiskGate();
    gate.reduceOnly('operator: reduce');
    const t = trailer(false);
    const rig = aKernelRig([{ id: 's', strategy: t.strategy }], { gate });
    rig.market.next(aTrade(1, 100));
    expect(t.stops).toEqual([]);
    expect(t.denials.map((d) => [d.source, d.check, d.intentKind])).toEqual([
      ['risk', 'tradingState', 'placeOrder'],
    ]);
    expect(t.denials[0]?.reason).toMatch(
      /trading is REDUCING \(operator: reduce\); only risk-reducing intents pass/,
    );
  });

  it('fires through a halt that came after it was placed when reduce-only: its order reaches the venue, as a venue-held stop would', () => {
    const gate = new RiskGate();
    const t = trailer();
    const buyer = defineStrategy({
      name: 'buyer',
      params: z.object({}),
      onTrade: (ctx, trade) =>
        trade.ts === 1 ? ctx.order.market({ sym: BTC, side: 'BUY', qty: 1 }) : undefined,
    });
    const rig = aKernelRig(
      [
        { id: 'b', strategy: buyer },
        { id: 's', strategy: t.strategy },
      ],
      { gate },
    );
    rig.market.next(aTrade(1, 100));
    rig.market.next(aTrade(2, 101));
    gate.halt('kill switch: test', undefined, 3);
    rig.market.next(aTrade(4, 99));
    expect(t.stops.map((s) => s.status)).toContain('TRIGGERED');
    expect(t.denials).toEqual([]);
    expect(rig.venue.submitted.map((c) => c.intent.ref)).toEqual(['b-1', 's-1']);
  });

  it('is still denied when it fires in a halt if it may open a position (not reduce-only)', () => {
    const gate = new RiskGate();
    const t = trailer(false);
    const rig = aKernelRig([{ id: 's', strategy: t.strategy }], { gate });
    rig.market.next(aTrade(1, 100));
    rig.market.next(aTrade(2, 101));
    gate.halt('kill switch: test', undefined, 3);
    rig.market.next(aTrade(4, 99));
    expect(t.denials.map((d) => [d.check, d.ref])).toEqual([['tradingState', 's-1']]);
    expect(rig.venue.submitted).toEqual([]);
  });
});
