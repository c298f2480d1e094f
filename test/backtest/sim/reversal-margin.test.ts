import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import {
  aBar,
  aLimit,
  aMarket,
  anAlgo,
  aQuote,
  aSim,
  aTrade,
  BTC,
  type SimUnderTest,
} from '../../kit/sim-builders.ts';

/** BTC without fees (the margin figures alone) and with room for large market orders. */
const NO_FEES = anInstrument(BTC, {
  maxMarketSize: D('1000'),
  fees: { maker: D(0), taker: D(0), markup: D(0), fixedPerFill: D(0) },
});

/** A one-price market at time ts: bid = ask = price, 1000 on each side. */
const at = (ts: number, price: number) => aQuote(ts, price, 1000, price, 1000);

/** Each order's fate: [ref, state, reason]. Rejections and fills only (no NEW / OPEN steps). */
function fates(t: SimUnderTest): [string, string, string][] {
  return t
    .of('order')
    .map(({ order }): [string, string, string] => [order.clientOrderId, order.orderState, order.reason ?? ''])
    .filter(([, state]) => state === 'REJECTED' || state === 'FILLED');
}

function positions(t: SimUnderTest): Promise<string[]> {
  return t.sim
    .snapshot()
    .then((s) =>
      s.positions.map((p) => `${p.positionSide} ${p.positionQty.toFixed()}@${p.avgPrice.toFixed()}`),
    );
}

/**
 * 10 000 USDT at leverage 1, no fees, SHORT 50 @100, then the price at 104:
 * equity 10 000 - 50 x 4 = 9 800, the short's margin 50 x 104 = 5 200, available 4 600.
 */
function shortAt104(mode: 'NET' | 'BOTH' = 'NET'): SimUnderTest {
  const t = aSim({ instruments: [NO_FEES], leverage: { [BTC]: D(1) }, positionMode: mode });
  t.sim.onMarket(at(0, 100));
  t.send(aMarket('short', 'SELL', '50', mode === 'BOTH' ? { positionSide: 'SHORT' } : {}));
  t.sim.onMarket(at(1, 104));
  return t;
}

describe('sim venue: the margin of an order that reverses a position', () => {
  it('frees the margin of the position it closes (NET): SHORT 50 takes BUY 99 (LONG 49 needs 5 096 of 9 800), not BUY 145', async () => {
    const t = shortAt104();
    expect((await t.sim.snapshot()).account?.availableMargin.toFixed()).toBe('4600');
    // BUY 145 leaves LONG 95, 95 x 104 = 9 880 > equity 9 800: it needs 9 880 - 5 200 = 4 680 > 4 600
    // BUY 99 leaves LONG 49, 49 x 104 = 5 096 < 5 200 freed: it needs nothing more
    t.send(aMarket('too-big', 'BUY', '145'), aMarket('flip', 'BUY', '99'));
    t.sim.advanceTo(2);
    expect(fates(t)).toEqual([
      ['short', 'FILLED', ''],
      ['too-big', 'REJECTED', '401023 insufficient margin: needs 4680.00, available 4600.00'],
      ['flip', 'FILLED', ''],
    ]);
    expect(await positions(t)).toEqual(['NONE 49@104']);
    // the short's loss realized: 10 000 - 200 = 9 800; LONG 49 at 104 locks 5 096
    expect((await t.sim.snapshot()).account?.availableMargin.toFixed()).toBe('4704');
  });

  it('frees nothing in BOTH mode: a BUY SHORT only closes (needs no margin), a BUY LONG opens the long leg in full', async () => {
    const t = shortAt104('BOTH');
    // BUY LONG 49: 49 x 104 = 5 096 > 4 600, the SHORT leg keeps its 5 200
    // BUY SHORT 99: only closes the SHORT leg (its fill is trimmed to 50), whatever its size
    t.send(
      aMarket('hedge', 'BUY', '49', { positionSide: 'LONG' }),
      aMarket('close', 'BUY', '99', { positionSide: 'SHORT' }),
    );
    t.sim.advanceTo(2);
    // flat again: 9 800 available carries LONG 49 (5 096)
    t.send(aMarket('long', 'BUY', '49', { positionSide: 'LONG' }));
    t.sim.advanceTo(3);
    expect(fates(t)).toEqual([
      ['short', 'FILLED', ''],
      ['hedge', 'REJECTED', '401023 insufficient margin: needs 5096.00, available 4600.00'],
      ['close', 'FILLED', ''],
      ['long', 'FILLED', ''],
    ]);
    expect(
      t.of('execution').map((e) => `${e.execution.clientOrderId} ${e.execution.quantity.toFixed()}`),
    ).toEqual(['short 50', 'close 50', 'long 49']);
  });

  it('reserves for resting limits what the position they would leave needs beyond the margin they free, the same side counted together', async () => {
    const t = shortAt104();
    // flip BUY 99 @103 leaves LONG 49: 49 x 103 = 5 047 < 5 200 freed -> reserves 0
    // then BUY 50 @102 as well: all filled, LONG 99 needs 5 047 + 50 x 102 = 10 147, 4 947 over 5 200
    t.send(aLimit('flip', 'BUY', '99', '103'), aLimit('more', 'BUY', '50', '102'));
    t.sim.advanceTo(2);
    expect((await t.sim.snapshot()).account?.availableMargin.toFixed()).toBe('4600');
    t.sim.onMarket(at(3, 102.9));
    expect(fates(t)).toEqual([
      ['short', 'FILLED', ''],
      ['more', 'REJECTED', '401023 insufficient margin: needs 4947.00, available 4600.00'],
      ['flip', 'FILLED', ''],
    ]);
    expect(await positions(t)).toEqual(['NONE 49@103']);
  });

  it('checks a reversal by market order on bars at the open it fills at, with the freed margin', async () => {
    const t = aSim({ instruments: [NO_FEES], leverage: { [BTC]: D(1) }, fillModel: 'bar' });
    t.sim.onMarket(aBar(60_000, 100, 100, 100, 100));
    t.send(aMarket('short', 'SELL', '50'));
    // SHORT 50 @100 at this open; at the close 104 as in the other cases: available 4 600
    t.sim.onMarket(aBar(120_000, 100, 104, 100, 104));
    // BUY 144 at the close 104 leaves LONG 94: 9 776 - 5 200 = 4 576 fits in 4 600. At the next
    // open 106: equity 9 700, the short locks 5 300, available 4 400; 94 x 106 = 9 964 - 5 300 = 4 664
    t.send(aMarket('too-big', 'BUY', '144'));
    t.sim.onMarket(aBar(180_000, 106, 106, 106, 106));
    // BUY 99 at 106 leaves LONG 49: 5 194 < 5 300 freed
    t.send(aMarket('flip', 'BUY', '99'));
    t.sim.onMarket(aBar(240_000, 106, 106, 106, 106));
    expect(fates(t)).toEqual([
      ['short', 'FILLED', ''],
      [
        'too-big',
        'REJECTED',
        '401023 insufficient margin: needs 4664.00 at 106 (the price of BINANCE_PERP_BTC_USDT when it came to fill), available 4400.00',
      ],
      ['flip', 'FILLED', ''],
    ]);
    expect(await positions(t)).toEqual(['NONE 49@106']);
  });

  it('lets an algo child reverse the position with the margin it frees', async () => {
    const t = shortAt104();
    // fires at 105: equity 10 000 - 50 x 5 = 9 750, the short locks 50 x 105 = 5 250, available 4 500;
    // the child BUY 99 leaves LONG 49, 49 x 105 = 5 145 < 5 250: it needs nothing more
    t.send(anAlgo('flip', { qty: D('99'), triggerPrice: D('105') }));
    t.sim.advanceTo(2);
    t.sim.onMarket(at(3, 105));
    t.sim.onMarket(aTrade(4, 105, 1, 'BUY'));
    expect(t.of('algoOrder').map((e) => e.algoOrder.state)).toEqual(['NEW', 'TRIGGERED']);
    expect(await positions(t)).toEqual(['NONE 49@105']);
  });
});
