import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { aBar, aHedgedBtcAccount, aMark, aMarket, aQuote, aSim, BTC } from '../../kit/sim-builders.ts';

describe('sim venue: margin', () => {
  it('reports equity, initial and maintenance margin, available margin and liqPrice by hand', async () => {
    const t = aSim({ startingBalances: { USDT: D('200') } });
    t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    t.sim.onMarket(aMark(0, 100));
    t.send(aMarket('m', 'BUY', '10'));
    t.sim.onMarket(aMark(1, 100));
    const snapshot = await t.sim.snapshot();
    const [position] = snapshot.positions;
    // fee 10 x 100 x 5 bps = 0.5 -> balance 199.5; IM = 1000 / 10 = 100; MM = 1000 x 0.005 = 5
    expect(snapshot.account?.equity.toFixed()).toBe('199.5');
    expect(snapshot.account?.availableMargin.toFixed()).toBe('99.5');
    expect(snapshot.account?.maintainMargin.toFixed()).toBe('5');
    expect(position?.positionMargin.toFixed()).toBe('100');
    // liqPrice p: 199.5 + 10 (p - 100) = 10 p x 0.005 -> p = 800.5 / 9.95
    expect(position?.liqPrice.toFixed(6)).toBe(D('800.5').div('9.95').toFixed(6));
    t.sim.onMarket(aMark(2, 90));
    const later = await t.sim.snapshot();
    expect(later.positions[0]?.unrealizedPNL.toFixed()).toBe('-100');
    expect(later.account?.equity.toFixed()).toBe('99.5');
  });

  it('keeps a long and a short leg apart in BOTH mode and realizes PnL per leg', async () => {
    const t = aSim({ positionMode: 'BOTH' });
    t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    t.send(
      aMarket('l', 'BUY', '1', { positionSide: 'LONG' }),
      aMarket('s', 'SELL', '2', { positionSide: 'SHORT' }),
    );
    t.sim.onMarket(aQuote(1, 104.9, 100, 105, 100));
    t.send(
      aMarket('lc', 'SELL', '1', { positionSide: 'LONG' }),
      aMarket('sc', 'BUY', '1', { positionSide: 'SHORT' }),
    );
    t.sim.advanceTo(2);
    const rpnl = t.of('execution').map((e) => [e.execution.clientOrderId, e.execution.rpnl.toFixed()]);
    // long 1 @100 sold @104.9: +4.9; short 2 @99.9, bought 1 back @105: -5.1
    expect(rpnl).toEqual([
      ['l', '0'],
      ['s', '0'],
      ['lc', '4.9'],
      ['sc', '-5.1'],
    ]);
    const positions = (await t.sim.snapshot()).positions.map((p) => [
      p.positionSide,
      p.positionQty.toFixed(),
    ]);
    expect(positions).toEqual([['SHORT', '-1']]);
  });

  it('reports one liqPrice for both legs of a sym in BOTH mode, where the account is liquidated', async () => {
    const t = aHedgedBtcAccount();
    // fees 1000 x 5 bps + 500 x 5 bps = 0.75 -> balance 299.25; both legs move with the mark P:
    // equity(P) = 299.25 + (P - 1000) - 0.5 (P - 1000) = 0.5 P - 200.75, MM(P) = 1.5 x 0.005 P
    // -> P = 200.75 / 0.4925 = 407.614213...
    const liq = D('200.75').div('0.4925').toFixed(6);
    const positions = (await t.sim.snapshot()).positions;
    expect(positions.map((p) => [p.positionSide, p.liqPrice.toFixed(6)])).toEqual([
      ['LONG', liq],
      ['SHORT', liq],
    ]);
    // at 407.7 equity 3.1 > MM 3.05775; at 407.5 equity 3 < MM 3.05625
    t.sim.onMarket(aMark(2, 407.7));
    expect(t.of('liquidationEvent')).toEqual([]);
    t.sim.onMarket(aMark(3, 407.5));
    expect(t.of('liquidationEvent').length).toBeGreaterThan(0);
  });

  it('never lets a closing order on a hedge leg open the other side', () => {
    const t = aSim({ positionMode: 'BOTH' });
    t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    t.send(
      aMarket('l', 'BUY', '1', { positionSide: 'LONG' }),
      aMarket('lc', 'SELL', '3', { positionSide: 'LONG' }),
    );
    t.sim.advanceTo(1);
    expect(t.of('execution').map((e) => e.execution.quantity.toFixed())).toEqual(['1', '1']);
  });

  describe('a market order placed before its sym has any price', () => {
    const fates = (t: ReturnType<typeof aSim>) =>
      Object.fromEntries(
        t.of('order').map(({ order }) => [order.clientOrderId, [order.orderState, order.reason ?? '']]),
      );

    it('has its margin checked at the first quote: 200 USDT at 10x carries 1 BTC at 100, not 100 BTC', () => {
      const t = aSim({ startingBalances: { USDT: D('200') } });
      t.send(aMarket('big', 'BUY', '100'), aMarket('small', 'BUY', '1'));
      expect(t.of('execution')).toEqual([]);
      t.sim.onMarket(aQuote(0, 99.9, 500, 100, 500));
      // at the mark (no mark price yet: the mid, 99.95): big IM 100 x 99.95 / 10 = 999.5 + taker fee
      // 9 995 x 0.0005 = 4.9975 > 200; small 9.995, so 200 - 9.995 = 190.005 was available to big
      // (190.00, rounded half to even)
      expect(fates(t)).toEqual({
        big: [
          'REJECTED',
          '401023 insufficient margin: needs 1004.50 (margin 999.50 + fee 5.00) at 99.95 (the price of BINANCE_PERP_BTC_USDT when it came to fill), available 190.00',
        ],
        small: ['FILLED', ''],
      });
      expect(t.of('execution').map((e) => [e.execution.clientOrderId, e.execution.price.toFixed()])).toEqual([
        ['small', '100'],
      ]);
    });

    it("has its margin checked at the first bar's open on the bar model", () => {
      const t = aSim({ startingBalances: { USDT: D('200') }, fillModel: 'bar' });
      t.send(aMarket('big', 'BUY', '100'), aMarket('small', 'BUY', '1'));
      t.sim.onMarket(aBar(60_000, 100, 101, 99, 100));
      expect(fates(t).big?.[0]).toBe('REJECTED');
      expect(t.of('execution').map((e) => [e.execution.clientOrderId, e.execution.price.toFixed()])).toEqual([
        ['small', '100'],
      ]);
    });
  });
});

describe('sim venue: a market order on bars', () => {
  it('has its margin checked at the open it fills at, not at the close it was sized on: 10000 at 1x buys 96 at 104, not 97', () => {
    const t = aSim({ startingBalances: { USDT: D('10000') }, fillModel: 'bar', leverage: { [BTC]: D(1) } });
    t.sim.onMarket(aBar(60_000, 100, 103, 99, 103));
    // 97 x 103 = 9991 (+ fee 4.9955) fits at the last close; at the next open, 97 x 104 = 10088
    // (+ fee 5.044) does not; 96 x 104 = 9984 + fee 4.992 = 9988.992 does
    t.send(aMarket('all-in', 'BUY', '97'));
    t.sim.onMarket(aBar(120_000, 104, 105, 103, 104));
    t.send(aMarket('fits', 'BUY', '96'));
    t.sim.onMarket(aBar(180_000, 104, 105, 103, 104));
    const fates = t
      .of('order')
      .map(({ order }) => [order.clientOrderId, order.orderState, order.reason ?? '']);
    expect(fates.filter(([, state]) => state === 'REJECTED' || state === 'FILLED')).toEqual([
      [
        'all-in',
        'REJECTED',
        '401023 insufficient margin: needs 10093.04 (margin 10088.00 + fee 5.04) at 104 (the price of BINANCE_PERP_BTC_USDT when it came to fill), available 10000.00',
      ],
      ['fits', 'FILLED', ''],
    ]);
  });
});
