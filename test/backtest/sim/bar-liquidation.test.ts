import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { aSellStop } from '../../kit/intent-builders.ts';
import { aBar, aLimit, aMark, aMarket, aSim, type SimUnderTest } from '../../kit/sim-builders.ts';

// The builders' instrument: taker 5 bps, tick 0.1, leverage 10, maintenance rate 0.5 %, liquidation
// fee 0.5 %. 20 USDT; one BTC bought or sold at 100 at a bar's open (fee 0.05): balance 19.95.
// Long: equity at p = 19.95 + (p - 100) equals maintenance 0.005 p at p = 80.05 / 0.995 = 80.4523.
// Short: 19.95 + (100 - p) = 0.005 p at p = 119.95 / 1.005 = 119.3532.

function aSmallAccount(side: 'BUY' | 'SELL'): SimUnderTest {
  const t = aSim({ fillModel: 'bar', startingBalances: { USDT: D('20') } });
  t.sim.onMarket(aBar(60_000, 100, 100, 100, 100));
  t.send(aMarket('a', side, '1'));
  t.sim.onMarket(aBar(120_000, 100, 100.5, 99.5, 100));
  return t;
}

function liquidationFill(t: SimUnderTest): string[] | undefined {
  const record = t.of('liquidationPosition')[0]?.record;
  return (
    record && [
      record.side,
      record.quantity.toFixed(),
      record.price.toFixed(),
      record.liquidationFee.toFixed(),
    ]
  );
}

function usdt(t: SimUnderTest): string | undefined {
  return t.of('asset').at(-1)?.asset.balance.toFixed();
}

describe('sim venue: liquidation inside a bar', () => {
  it('liquidates a long at the first tick below its liquidation price when the bar low crosses it', () => {
    const t = aSmallAccount('BUY');
    // Long: path 100 -> low 75 -> 101 -> close 99. The level 80.4523 is crossed going down.
    t.sim.onMarket(aBar(180_000, 100, 101, 75, 99));
    // closed at 80.4: rpnl 80.4 - 100 = -19.6, liquidation fee 80.4 x 0.5 % = 0.402
    expect(liquidationFill(t)).toEqual(['SELL', '1', '80.4', '0.402']);
    // 19.95 - 19.6 - 0.402 = -0.052 (no insurance fund)
    expect(usdt(t)).toBe('-0.052');
    expect(t.sim.equity().toFixed()).toBe('-0.052');
  });

  it('liquidates a short at the first tick above its liquidation price when the bar high crosses it', () => {
    const t = aSmallAccount('SELL');
    // Short: path 100 -> high 125 -> 99 -> close 100.
    t.sim.onMarket(aBar(180_000, 100, 125, 99, 100));
    // closed at 119.4: rpnl 100 - 119.4 = -19.4, fee 119.4 x 0.5 % = 0.597; 19.95 - 19.4 - 0.597
    expect(liquidationFill(t)).toEqual(['BUY', '1', '119.4', '0.597']);
    expect(usdt(t)).toBe('-0.047');
  });

  it('liquidates at the open when the bar gaps through the liquidation price', () => {
    const t = aSmallAccount('BUY');
    t.sim.onMarket(aBar(180_000, 70, 72, 69, 71));
    // at the open 70: rpnl -30, fee 0.35; 19.95 - 30 - 0.35 = -10.4
    expect(liquidationFill(t)).toEqual(['SELL', '1', '70', '0.35']);
    expect(usdt(t)).toBe('-10.4');
  });

  it('does not liquidate when the bar stays above the liquidation price', () => {
    const t = aSmallAccount('BUY');
    // at the low 81: equity 0.95 >= maintenance 0.405
    t.sim.onMarket(aBar(180_000, 100, 101, 81, 99));
    expect(t.of('liquidationEvent')).toHaveLength(0);
    // 19.95 - 1 at the close 99
    expect(t.sim.equity().toFixed()).toBe('18.95');
  });

  it('lets a stop above the liquidation price close the position first', () => {
    const t = aSmallAccount('BUY');
    t.send(aSellStop({ triggerPrice: D('85') }));
    t.sim.onMarket(aBar(180_000, 100, 100.5, 99.5, 100));
    t.sim.onMarket(aBar(240_000, 100, 101, 75, 99));
    expect(t.of('liquidationEvent')).toHaveLength(0);
    // sold at 85: rpnl -15, fee 85 x 5 bps = 0.0425; 19.95 - 15 - 0.0425
    expect(usdt(t)).toBe('4.9075');
  });

  it('liquidates before a stop placed below the liquidation price, and cancels that stop', () => {
    const t = aSmallAccount('BUY');
    t.send(aSellStop({ triggerPrice: D('78') }));
    t.sim.onMarket(aBar(180_000, 100, 100.5, 99.5, 100));
    t.sim.onMarket(aBar(240_000, 100, 101, 75, 99));
    expect(liquidationFill(t)).toEqual(['SELL', '1', '80.4', '0.402']);
    expect(t.of('algoOrder').at(-1)?.algoOrder.state).toBe('CANCELLED');
    expect(usdt(t)).toBe('-0.052');
  });

  it('lets a stop at the liquidation tick itself close the position first (a tie: triggers before liquidation)', () => {
    const t = aSmallAccount('BUY');
    t.send(aSellStop({ triggerPrice: D('80.4') }));
    t.sim.onMarket(aBar(180_000, 100, 100.5, 99.5, 100));
    t.sim.onMarket(aBar(240_000, 100, 101, 75, 99));
    expect(t.of('liquidationEvent')).toHaveLength(0);
    // sold at 80.4: rpnl -19.6, fee 80.4 x 5 bps = 0.0402; 19.95 - 19.6 - 0.0402
    expect(usdt(t)).toBe('0.3098');
  });

  it('fills a limit resting at the liquidation tick before the liquidation there (a tie: fills before liquidation)', () => {
    const t = aSmallAccount('BUY');
    t.send(aLimit('add', 'BUY', '1', '80.4'));
    t.sim.onMarket(aBar(180_000, 100, 100.5, 99.5, 100));
    t.sim.onMarket(aBar(240_000, 100, 101, 75, 99));
    // the buy fills at 80.4 (maker 2 bps: 0.01608), then equity 0.33392 < maintenance 2 x 80.4 x 0.5 %
    // = 0.804 liquidates the long 2 there: rpnl 2 x 80.4 - 180.4 = -19.6, fee 160.8 x 0.5 % = 0.804
    expect(t.of('execution').map((e) => [e.execution.clientOrderId, e.execution.price.toFixed()])[1]).toEqual(
      ['add', '80.4'],
    );
    expect(liquidationFill(t)).toEqual(['SELL', '2', '80.4', '0.804']);
  });

  it('counts a margin loan in the liquidation level it finds along the path', () => {
    const t = aSim({
      fillModel: 'bar',
      startingBalances: { USDT: D('20') },
      loans: {
        assets: { 'BINANCE:USDT': { annualRate: D('0.0876'), userQuota: D('100'), pool: D('100') } },
        maxBorrowLtv: D('0.5'),
        maintenanceMarginRate: D('0.05'),
      },
    });
    t.sim.onMarket(aBar(60_000, 100, 100, 100, 100));
    t.send({ kind: 'borrow', ref: 'loan', exchange: 'BINANCE', coin: 'USDT', amount: D('10') });
    t.send(aMarket('a', 'BUY', '1'));
    t.sim.onMarket(aBar(120_000, 100, 100.5, 99.5, 100));
    // balance 30 - 0.05, loan 10: equity 19.95 + (p - 100) = maintenance 0.005 p + 10 x 5 % at
    // p = 80.55 / 0.995 = 80.9548: the first tick below is 80.9
    t.sim.onMarket(aBar(180_000, 100, 101, 75, 99));
    // equity 0.85 < 0.4045 + 0.5: the liquidation starts there and first repays the loan from the
    // USDT balance (no trade, no fee), which leaves equity 0.85 above the position's 0.4045
    const first = t.of('liquidationEvent').map((e) => e.record)[0];
    expect([first?.eventType, first?.equity.toFixed(), first?.maintainMargin.toFixed()]).toEqual([
      'PARTIAL_LIQUIDATION',
      '0.85',
      '0.9045',
    ]);
    expect(
      t.sim
        .statement()
        .find((f) => f.type === 'REPAY')
        ?.amount.toFixed(),
    ).toBe('-10');
    // the repayment freed 0.5 of maintenance margin: the long is republished with its new liqPrice
    expect(t.of('position').map((e) => e.position.liqPrice.toFixed(4))).toContain('80.4523');
    // then the long alone: 19.95 + (p - 100) = 0.005 p at p = 80.4523, the first tick below 80.4;
    // rpnl -19.6, fee 80.4 x 0.5 % = 0.402: balance 19.95 - 19.6 - 0.402
    expect(liquidationFill(t)).toEqual(['SELL', '1', '80.4', '0.402']);
    expect(usdt(t)).toBe('-0.052');
  });

  it('leaves liquidation to the mark price when the recording has one (the bar path moves the last price only)', () => {
    const t = aSmallAccount('BUY');
    t.sim.onMarket(aMark(150_000, 100));
    t.sim.onMarket(aBar(180_000, 100, 101, 75, 99));
    expect(t.of('liquidationEvent')).toHaveLength(0);
  });
});
