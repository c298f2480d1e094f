import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { anEthSpot } from '../../kit/instrument-builders.ts';
import { aMarket, aQuote, aSim } from '../../kit/sim-builders.ts';

const ETH = 'OKX_SPOT_ETH_USDT';

describe('liquidation position snapshots', () => {
  it('show a spot holding with liqPrice 0, as the Positions channel does', async () => {
    // 1 000 USDT; borrow 5 ETH and sell them at 100: a holding of -5 that the loan's maintenance
    // margin liquidates when ETH rises to 285.7.
    const t = aSim({
      instruments: [anEthSpot()],
      startingBalances: { USDT: D('1000') },
      loans: {
        assets: { 'OKX:ETH': { annualRate: D('0.0876'), userQuota: D('100'), pool: D('100') } },
        maxBorrowLtv: D('0.5'),
      },
    });
    t.sim.onMarket(aQuote(0, 100, 50, 100, 50, ETH));
    t.send({ kind: 'borrow', ref: 'b', exchange: 'OKX', coin: 'ETH', amount: D('5') });
    t.sim.advanceTo(1);
    t.send(aMarket('s', 'SELL', '5', { sym: ETH }));
    t.sim.advanceTo(2);
    expect(
      (await t.sim.snapshot()).positions.map((p) => [p.positionQty.toFixed(), p.liqPrice.toFixed()]),
    ).toEqual([['-5', '0']]);
    t.sim.onMarket(aQuote(13, 285.7, 50, 285.71, 50, ETH));
    const triggered = t.of('liquidationEvent').find((e) => e.record.nodeType === 'TRIGGERED');
    // Before: liqPrice 285.619 here while the Positions channel said 0.
    expect(
      triggered?.record.positions.map((p) => [p.sym, p.positionQty.toFixed(), p.liqPrice.toFixed()]),
    ).toEqual([[ETH, '-5', '0']]);
  });
});
