import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { aBar, aMarket, aQuote, aSim } from '../../kit/sim-builders.ts';

const byQuote = (ref: string, side: 'BUY' | 'SELL', quote: string, more = {}) =>
  aMarket(ref, side, '0', { quoteOrderQty: D(quote), ...more });

function closeOutcome(t: ReturnType<typeof aSim>) {
  const last = t
    .of('order')
    .filter((e) => e.order.clientOrderId === 'close')
    .at(-1)?.order;
  return [last?.orderState, last?.orderQty.toFixed(), last?.executedQty.toFixed(), last?.actionMsg];
}

const TRIMMED = 'reduce-only qty trimmed to the position size 1';

describe('reduce-only market order larger than the position (long 1)', () => {
  it('on quotes, by quote amount: trimmed to the position and FILLED', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 100, 50, 100, 50));
    t.send(aMarket('open', 'BUY', '1'));
    t.sim.advanceTo(2);
    t.send(byQuote('close', 'SELL', '1000', { reduceOnly: true }));
    t.sim.advanceTo(3);
    expect(closeOutcome(t)).toEqual(['FILLED', '1', '1', TRIMMED]);
  });
  it('on bars, by qty 10: trimmed to the position and FILLED', () => {
    const t = aSim({ fillModel: { name: 'bar' } });
    t.sim.onMarket(aBar(60_000, 99, 101, 98, 100));
    t.send(aMarket('open', 'BUY', '1'));
    t.sim.onMarket(aBar(120_000, 100, 101, 99, 100));
    t.send(aMarket('close', 'SELL', '10', { reduceOnly: true }));
    t.sim.onMarket(aBar(180_000, 100, 101, 99, 100));
    expect(closeOutcome(t)).toEqual(['FILLED', '1', '1', TRIMMED]);
  });
  it('on bars, by quote amount (pays for 10): trimmed when sized and FILLED, as the qty order', () => {
    const t = aSim({ fillModel: { name: 'bar' } });
    t.sim.onMarket(aBar(60_000, 99, 101, 98, 100));
    t.send(aMarket('open', 'BUY', '1'));
    t.sim.onMarket(aBar(120_000, 100, 101, 99, 100));
    t.send(byQuote('close', 'SELL', '1000', { reduceOnly: true }));
    t.sim.onMarket(aBar(180_000, 100, 101, 99, 100));
    expect(closeOutcome(t)).toEqual(['FILLED', '1', '1', TRIMMED]);
  });
});
