import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { anEthSpot, anInstrument } from '../../kit/instrument-builders.ts';
import { aMark, aMarket, aQuote, aSim } from '../../kit/sim-builders.ts';

const ETH_PERP = 'BINANCE_PERP_ETH_USDT';
const ETH_SPOT = 'OKX_SPOT_ETH_USDT';

/**
 * 100 USDT and 1 ETH, long 5 ETH perps at 100 (taker fee 0.25); only the perpetual has a price,
 * so its mark values the ETH held too.
 */
function aLongBackedByEth() {
  const t = aSim({
    instruments: [anInstrument(ETH_PERP), anEthSpot()],
    startingBalances: { USDT: D('100'), ETH: D('1') },
  });
  t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100, ETH_PERP));
  t.sim.onMarket(aMark(0, 100, undefined, ETH_PERP));
  t.send(aMarket('m', 'BUY', '5', { sym: ETH_PERP }));
  t.sim.onMarket(aMark(1, 100, undefined, ETH_PERP));
  return t;
}

describe('sim venue: the price that values a coin', () => {
  it("solves liqPrice with a coin held that the position's own perpetual values", async () => {
    const t = aLongBackedByEth();
    // equity 99.75 + p + 5 (p - 100) = MM 0.025 p -> p = 400.25 / 5.975
    const liq = D('400.25').div('5.975');
    const snapshot = await t.sim.snapshot();
    expect(snapshot.positions[0]?.liqPrice.toFixed(6)).toBe(liq.toFixed(6));
    t.sim.onMarket(aMark(2, 67, undefined, ETH_PERP));
    expect(t.of('liquidationEvent')).toHaveLength(0);
    t.sim.onMarket(aMark(3, 66.9, undefined, ETH_PERP));
    expect(t.of('liquidationEvent').length).toBeGreaterThan(0);
  });

  it('values a coin at its spot price before a perpetual mark, however the instruments are listed', async () => {
    // the spot's mid 99.95 values the ETH, not the perpetual's mark 110
    const equityWith = async (instruments: ReturnType<typeof anInstrument>[]) => {
      const t = aSim({ instruments, startingBalances: { USDT: D('100'), ETH: D('1') } });
      t.sim.onMarket(aQuote(0, 109.9, 1, 110, 1, ETH_PERP));
      t.sim.onMarket(aMark(0, 110, undefined, ETH_PERP));
      t.sim.onMarket(aQuote(0, 99.9, 1, 100, 1, ETH_SPOT));
      t.sim.advanceTo(1);
      return (await t.sim.snapshot()).account?.equity.toFixed();
    };
    expect(await equityWith([anInstrument(ETH_PERP), anEthSpot()])).toBe('199.95');
    expect(await equityWith([anEthSpot(), anInstrument(ETH_PERP)])).toBe('199.95');
  });
});
