import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aLimit, aQuote, aSim, BTC, fillLines } from '../../kit/sim-builders.ts';

describe('a displayed size on a fine lot, taken whole by a larger order', () => {
  it('fills the size as displayed (12345.12345678 on a 1e-8 lot), never more', () => {
    const t = aSim({
      instruments: [
        anInstrument(BTC, {
          tickSize: D('0.01'),
          lotSize: D('0.00000001'),
          minSize: D('0.00000001'),
          maxLimitSize: D('100000'),
        }),
      ],
      startingBalances: { USDT: D('100000000') },
    });
    t.sim.onMarket(aQuote(1, 99.99, 1, 100, 12345.12345678));
    t.send(aLimit('b', 'BUY', '20000', '100', { timeInForce: 'IOC' }));
    t.sim.advanceTo(2);
    expect(fillLines(t)).toEqual(['b BUY 12345.12345678@100 TAKER']);
  });
});
