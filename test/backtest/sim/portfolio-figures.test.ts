import { afterEach, describe, expect, it, vi } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { aBar, aMarket, aSim } from '../../kit/sim-builders.ts';

describe('sim venue: figures read off the balances and positions', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('reads the balances once per move of the portfolio, not on every bar, equity sample or estimate', () => {
    const t = aSim({ fillModel: 'bar', startingBalances: { USDT: D('1000') } });
    t.sim.onMarket(aBar(60_000, 100, 100, 100, 100));
    t.send(aMarket('a', 'BUY', '1'));
    t.sim.onMarket(aBar(120_000, 100, 100.5, 99.5, 100));
    const equity = t.sim.equity().toFixed();
    // One bar, sample and estimate work the figures out for the position just opened.
    t.sim.onMarket(aBar(180_000, 100, 101, 99, 100.5));
    t.sim.equitySnapshot();
    t.sim.equityEstimate();
    const keys = vi.spyOn(Map.prototype, 'keys');
    for (let i = 0; i < 50; i++) {
      const open = 240_000 + i * 60_000;
      t.sim.onMarket(aBar(open, 100, 102, 98, 100 + (i % 3)));
      t.sim.equitySnapshot();
      t.sim.equityEstimate();
    }
    expect(keys).not.toHaveBeenCalled();
    // A fill moves the portfolio: the figures are read again, and give the equity of the moment.
    t.send(aMarket('b', 'SELL', '1'));
    t.sim.onMarket(aBar(3_240_000, 100, 100, 100, 100));
    expect(t.sim.equitySnapshot().exact().toFixed()).toBe(t.sim.equity().toFixed());
    expect(keys).toHaveBeenCalled();
    expect(equity).toBe('999.95');
  });
});
