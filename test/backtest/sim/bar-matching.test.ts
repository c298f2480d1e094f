import { describe, expect, it } from 'vitest';
import type { ExecutionEvent, PlaceOrderIntent } from '../../../core/model/index.ts';
import { D } from '../../../core/model/index.ts';
import { aSellStop } from '../../kit/intent-builders.ts';
import { aBar, aLimit, aMarket, aSim, type SimUnderTest } from '../../kit/sim-builders.ts';

// The builders' instrument: maker 2 bps, taker 5 bps, tick 0.1; 10 000 USDT, zero latency.

/** A last-price tp / sl pair that sends market orders. */
function bracket(tp: string, sl: string): Pick<PlaceOrderIntent, 'tp' | 'sl'> {
  return {
    tp: { triggerPrice: D(tp), triggerType: 'LastPrice', price: D('0') },
    sl: { triggerPrice: D(sl), triggerType: 'LastPrice', price: D('0') },
  };
}

function fillsOf(t: SimUnderTest): string[][] {
  return t
    .of('execution')
    .map(({ execution: e }: ExecutionEvent) => [
      e.clientOrderId,
      e.side,
      e.quantity.toFixed(),
      e.price.toFixed(),
      e.execType,
      e.fee.toFixed(),
      e.rpnl.toFixed(),
    ]);
}

function usdt(t: SimUnderTest): string | undefined {
  return t
    .of('asset')
    .filter((e) => e.asset.coin === 'USDT')
    .at(-1)
    ?.asset.balance.toFixed();
}

/** A sim on the bar fill model that has seen one bar (closing at 100 at 60 000): ready for orders. */
function aBarSim(): SimUnderTest {
  const t = aSim({ fillModel: 'bar' });
  t.sim.onMarket(aBar(60_000, 99, 101, 98, 100));
  return t;
}

describe('sim venue: bar path after the open', () => {
  const cases = [
    {
      position: 'long',
      entry: aMarket('m', 'BUY', '10', bracket('103', '97')),
      // Filled at the open 100 -> long, so the path is 100 -> low 96 -> high 103.5 -> 100: sl 97 first.
      bar: aBar(120_000, 100, 103.5, 96, 100),
      // entry fee 10 x 100 x 5 bps = 0.5; exit 10 x 97: rpnl -30, fee 10 x 97 x 5 bps = 0.485
      fills: [
        ['m', 'BUY', '10', '100', 'TAKER', '0.5', '0'],
        ['m-sl-trig', 'SELL', '10', '97', 'TAKER', '0.485', '-30'],
      ],
      // 10000 - 0.5 - 30 - 0.485
      usdt: '9969.015',
    },
    {
      position: 'short',
      entry: aMarket('m', 'SELL', '10', bracket('97', '103')),
      // Short from the open 100: path 100 -> high 104 -> low 96.5 -> 100: sl 103 first.
      bar: aBar(120_000, 100, 104, 96.5, 100),
      // entry fee 0.5; exit BUY 10 x 103: rpnl 10 x (100 - 103) = -30, fee 10 x 103 x 5 bps = 0.515
      fills: [
        ['m', 'SELL', '10', '100', 'TAKER', '0.5', '0'],
        ['m-sl-trig', 'BUY', '10', '103', 'TAKER', '0.515', '-30'],
      ],
      usdt: '9968.985',
    },
  ];
  for (const c of cases) {
    it(`takes the stop first when a ${c.position} entered at the open meets both its tp and sl in that bar`, () => {
      const t = aBarSim();
      t.send(c.entry);
      t.sim.onMarket(c.bar);
      expect(fillsOf(t)).toEqual(c.fills);
      expect(usdt(t)).toBe(c.usdt);
    });
  }
});

describe('sim venue: bar segments walked in price order', () => {
  it('checks the stop of a limit entry filled mid-bar against the rest of the segment', () => {
    const t = aBarSim();
    t.send(aLimit('b', 'BUY', '1', '95', bracket('105', '92')));
    // Flat, extremes equally far: path 100 -> 90 -> 110 -> 100. The buy fills at 95 on the way down
    // and the price goes on to 90, through the sl 92.
    t.sim.onMarket(aBar(120_000, 100, 110, 90, 100));
    // entry 1 x 95 maker 2 bps = 0.019; exit 1 x 92: rpnl -3, taker fee 92 x 5 bps = 0.046
    expect(fillsOf(t)).toEqual([
      ['b', 'BUY', '1', '95', 'MAKER', '0.019', '0'],
      ['b-sl-trig', 'SELL', '1', '92', 'TAKER', '0.046', '-3'],
    ]);
    expect(t.of('algoOrder').map((e) => [e.algoOrder.clientAlgoOrderId, e.algoOrder.state])).toContainEqual([
      'b-tp',
      'CANCELLED',
    ]);
    // 10000 - 0.019 - 3 - 0.046
    expect(usdt(t)).toBe('9996.935');
  });

  it('fills a stop that a mid-bar entry meets at its trigger, not at the segment end', () => {
    const t = aBarSim();
    t.send(aLimit('b', 'BUY', '1', '95', bracket('120', '92')));
    // High nearer the open: path 100 -> 103 -> 90 -> 100; the buy fills at 95 going down to 90.
    t.sim.onMarket(aBar(120_000, 100, 103, 90, 100));
    // exit at the sl 92 (not at the low 90): rpnl 92 - 95 = -3
    expect(fillsOf(t).map((f) => [f[0], f[3], f[6]])).toEqual([
      ['b', '95', '0'],
      ['b-sl-trig', '92', '-3'],
    ]);
  });

  it('fires the stop first when a tp and an sl are reached at the same point', () => {
    const t = aBarSim();
    // A mis-set bracket: when the entry fills at the open 100, both legs are already passed.
    t.send(aMarket('m', 'BUY', '1', bracket('99', '101')));
    t.sim.onMarket(aBar(120_000, 100, 100.5, 99.5, 100));
    // both reached at 100: the stop sells at 100, rpnl 0, fee 100 x 5 bps = 0.05
    expect(fillsOf(t).at(-1)).toEqual(['m-sl-trig', 'SELL', '1', '100', 'TAKER', '0.05', '0']);
  });

  it('fires the trigger the price reaches first, whatever order they were placed in', () => {
    const t = aBarSim();
    t.send(aMarket('m', 'BUY', '1'));
    t.sim.onMarket(aBar(120_000, 100, 100.5, 99.5, 100));
    t.send(
      aSellStop({ ref: 'far', triggerPrice: D('92') }),
      aSellStop({ ref: 'near', triggerPrice: D('96') }),
    );
    t.sim.onMarket(aBar(180_000, 100, 100.5, 99.5, 100));
    // Long: path 100 -> 90 -> 100.5 -> 95. Going down, 96 comes before 92.
    t.sim.onMarket(aBar(240_000, 100, 100.5, 90, 95));
    // near sells 1 at 96: rpnl -4, fee 96 x 5 bps = 0.048; far then has nothing to reduce, and its
    // order is refused as a direct reduce-only order on a flat position is (401097)
    expect(fillsOf(t).slice(1)).toEqual([['near-trig', 'SELL', '1', '96', 'TAKER', '0.048', '-4']]);
    expect(
      t.of('order').find((e) => e.order.clientOrderId === 'far-trig' && e.order.orderState === 'REJECTED')
        ?.order.reason,
    ).toMatch(/^401097 /);
  });
});

/** {@link aBarSim} long 1 from the next bar's open 100 (taker fee 0.05); that bar closes at 100. */
function aLongBarSim(): SimUnderTest {
  const t = aBarSim();
  t.send(aMarket('m', 'BUY', '1'));
  t.sim.onMarket(aBar(120_000, 100, 100.5, 99.5, 100));
  return t;
}

describe('sim venue: bar path tie rules (sim README, Bars)', () => {
  it('walks the low first when flat and the extremes are equally far from the open', () => {
    const t = aBarSim();
    t.send(aLimit('b', 'BUY', '1', '95'), aLimit('s', 'SELL', '1', '105'));
    // flat, 100 - 90 = 110 - 100: path 100 -> 90 -> 110 -> 100, the buy opens, the sell closes (+10)
    t.sim.onMarket(aBar(120_000, 100, 110, 90, 100));
    // maker 2 bps: 95 x 0.0002 = 0.019, 105 x 0.0002 = 0.021
    expect(fillsOf(t)).toEqual([
      ['b', 'BUY', '1', '95', 'MAKER', '0.019', '0'],
      ['s', 'SELL', '1', '105', 'MAKER', '0.021', '10'],
    ]);
  });

  it('fires a trigger before a resting BUY limit at the same price (falling stretch)', () => {
    const t = aLongBarSim();
    t.send(aSellStop({ ref: 'st', triggerPrice: D('96') }), aLimit('b', 'BUY', '1', '96'));
    t.sim.onMarket(aBar(180_000, 100, 100.5, 99.5, 100));
    // long: path 100 -> 90 -> 100.5 -> 95; at 96 the stop sells the long 1 (rpnl -4), then the buy opens a long
    t.sim.onMarket(aBar(240_000, 100, 100.5, 90, 95));
    expect(fillsOf(t).slice(1)).toEqual([
      ['st-trig', 'SELL', '1', '96', 'TAKER', '0.048', '-4'],
      ['b', 'BUY', '1', '96', 'MAKER', '0.0192', '0'],
    ]);
  });

  it('fires a trigger before a resting SELL limit at the same price (rising stretch)', () => {
    const t = aLongBarSim();
    t.send(
      aSellStop({ ref: 'tp', conditionType: 'GTE', triggerPrice: D('104') }),
      aLimit('s', 'SELL', '1', '104'),
    );
    t.sim.onMarket(aBar(180_000, 100, 100.5, 99.5, 100));
    // long: path 100 -> 99.5 -> 105 -> 100; at 104 the reduce-only trigger sells the long 1 (+4), then the limit opens a short
    t.sim.onMarket(aBar(240_000, 100, 105, 99.5, 100));
    expect(fillsOf(t).slice(1)).toEqual([
      ['tp-trig', 'SELL', '1', '104', 'TAKER', '0.052', '4'],
      ['s', 'SELL', '1', '104', 'MAKER', '0.0208', '0'],
    ]);
  });
});

describe('sim venue: bar fills, maker or taker', () => {
  it('fills a limit that was marketable on arrival as a taker at the next open', () => {
    const t = aBarSim();
    // buy 105 after a close of 100: it would take on arrival
    t.send(aLimit('b', 'BUY', '1', '105'));
    t.sim.onMarket(aBar(120_000, 101, 102, 100, 101));
    // 1 x 101 x 5 bps = 0.0505
    expect(fillsOf(t)).toEqual([['b', 'BUY', '1', '101', 'TAKER', '0.0505', '0']]);
  });

  it('fills a resting limit that a later bar opens through as a maker at that open', () => {
    const t = aBarSim();
    t.send(aLimit('b', 'BUY', '1', '98'));
    t.sim.onMarket(aBar(120_000, 100, 101, 99, 100));
    t.sim.onMarket(aBar(180_000, 97, 98, 96, 97));
    // 1 x 97 x 2 bps = 0.0194
    expect(fillsOf(t)).toEqual([['b', 'BUY', '1', '97', 'MAKER', '0.0194', '0']]);
  });

  it('fills a limit that was marketable on arrival but met no open as a maker later in the path', () => {
    const t = aBarSim();
    t.send(aLimit('b', 'BUY', '1', '101'));
    // Opens above the limit at 102: it rests from then on and fills at 101 on the way down.
    t.sim.onMarket(aBar(120_000, 102, 103, 100, 102));
    // 1 x 101 x 2 bps = 0.0202
    expect(fillsOf(t)).toEqual([['b', 'BUY', '1', '101', 'MAKER', '0.0202', '0']]);
  });
});
