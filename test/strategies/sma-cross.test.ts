import { describe, expect, it } from 'vitest';
import { D } from '../../core/model/index.ts';
import { smaCross } from '../../strategies/index.ts';
import { anInstrument } from '../kit/instrument-builders.ts';
import { BTC } from '../kit/kernel-events.ts';
import { aBar, aMark } from '../kit/sim-builders.ts';
import { aStrategyRig, type StrategyRigOptions } from '../kit/strategy-rig.ts';

const MINUTE = 60_000;
const base = { sym: BTC, fast: 2, slow: 3, fraction: 0.5 };

/**
 * One closed 1m bar per close (the mark follows the close), a minute apart from minute `first`;
 * with bars only, market orders fill at the last close.
 */
function closesFrom(first: number, ...prices: number[]) {
  return prices.flatMap((close, i) => {
    const ts = (first + i) * MINUTE;
    return [aMark(ts, close), aBar(ts, close, close, close, close)];
  });
}

function aSmaCross(params: object = {}, options: StrategyRigOptions = {}) {
  return aStrategyRig([{ id: 'sma', strategy: smaCross, params: { ...base, ...params } }], options);
}

function orders(rig: Awaited<ReturnType<typeof aSmaCross>>): string[] {
  return rig.sentOf('placeOrder').map((p) => `${p.side} ${p.orderType} ${p.qty.toFixed()}`);
}

describe('sma-cross strategy', () => {
  it('does not trade before both averages are warm, nor on the regime seen at warm-up', async () => {
    const rig = await aSmaCross();
    rig.push(...closesFrom(1, 1000, 1000, 900)); // warm at the 3rd bar: fast 950 < slow 966.7, no cross yet
    expect(rig.sent).toEqual([]);
  });

  it('goes long on a cross up, sized floor(equity x fraction / close) to the lot', async () => {
    const rig = await aSmaCross();
    rig.push(...closesFrom(1, 1000, 1000, 900, 1200)); // fast 1050 > slow 1033.3
    // 10 000 x 0.5 / 1200 = 4.1666.. -> 4.166
    expect(orders(rig)).toEqual(['BUY MARKET 4.166']);
    expect((await rig.venueQty()).toFixed()).toBe('4.166');
    expect(rig.eventsOf('execution')[0]?.execution.price.toFixed()).toBe('1200');
  });

  it('reverses to short on a cross down, sized from equity after the loss', async () => {
    const rig = await aSmaCross();
    rig.push(...closesFrom(1, 1000, 1000, 900, 1200, 500)); // fast 850 < slow 866.7
    // equity = 10 000 - fee 4.166 x 1200 x 5bps (2.4996) + 4.166 x (500 - 1200) = 7081.3004
    // target = -floor(7081.3004 x 0.5 / 500) = -7.081; trade -7.081 - 4.166
    expect(orders(rig)).toEqual(['BUY MARKET 4.166', 'SELL MARKET 11.247']);
    expect((await rig.venueQty()).toFixed()).toBe('-7.081');
  });

  it('only goes flat on a cross down when allowShort is false, then long again on the next cross up', async () => {
    const rig = await aSmaCross({ allowShort: false });
    rig.push(...closesFrom(1, 1000, 1000, 900, 1200, 500));
    expect(orders(rig)).toEqual(['BUY MARKET 4.166', 'SELL MARKET 4.166']);
    expect((await rig.venueQty()).isZero()).toBe(true);
    rig.push(...closesFrom(6, 520)); // fast 510 < slow 740: still down
    expect(orders(rig)).toHaveLength(2);
    rig.push(...closesFrom(7, 700)); // fast 610 > slow 573.3: cross up
    expect(orders(rig)).toHaveLength(3);
    expect(orders(rig)[2]).toMatch(/^BUY MARKET /);
  });

  it('splits a trade larger than the instrument maxMarketSize (100) into several market orders', async () => {
    const rig = await aSmaCross({ fraction: 1 }, { cash: 1_000_000 });
    rig.push(...closesFrom(1, 1000, 1000, 900, 1200)); // 1 000 000 / 1200 = 833.333
    expect(orders(rig)).toEqual([...Array.from({ length: 8 }, () => 'BUY MARKET 100'), 'BUY MARKET 33.333']);
    expect((await rig.venueQty()).toFixed()).toBe('833.333');
    expect(rig.denials).toEqual([]);
  });

  it('leaves room for the taker fee with reserveFee, so a fraction of 1 at leverage 1 fills', async () => {
    const unlevered = { instruments: [anInstrument(BTC, { defaultLeverage: D(1) })] };
    const plain = await aSmaCross({ fraction: 1 }, unlevered);
    plain.push(...closesFrom(1, 1000, 1000, 900, 1200));
    // 10 000 / 1200 = 8.333: margin 9 999.6 + taker fee 8.333 x 1200 x 5 bps (4.9998) > 10 000.
    expect(orders(plain)).toEqual(['BUY MARKET 8.333']);
    expect((await plain.venueQty()).isZero()).toBe(true);
    const reserved = await aSmaCross({ fraction: 1, reserveFee: true }, unlevered);
    reserved.push(...closesFrom(1, 1000, 1000, 900, 1200));
    // 10 000 / (1200 x 1.0005) = 8.32917... -> 8.329: 9 994.8 + fee 4.9974 = 9 999.7974 <= 10 000.
    expect(orders(reserved)).toEqual(['BUY MARKET 8.329']);
    expect((await reserved.venueQty()).toFixed()).toBe('8.329');
  });

  it('rejects nonsense parameters', () => {
    const parse = (p: object) => smaCross.params.safeParse({ ...base, ...p }).success;
    expect(parse({})).toBe(true);
    expect(parse({ fast: 5, slow: 5 })).toBe(false);
    expect(parse({ fast: 0 })).toBe(false);
    expect(parse({ fraction: 0 })).toBe(false);
    expect(parse({ fraction: 1.5 })).toBe(false);
    expect(parse({ interval: '7m' })).toBe(false);
    expect(parse({ sym: '' })).toBe(false);
    expect(parse({ slowest: 3 })).toBe(false);
  });
});
