import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { anEthSpot, anInstrument } from '../../kit/instrument-builders.ts';
import { aTwoExchangeEthSim, BINANCE_ETH, OKX_ETH } from '../../kit/shared-eth-balance.ts';
import {
  aLimit,
  aMarket,
  aQuote,
  aSim,
  asApproved,
  aTrade,
  BTC,
  fillLines,
  type SimUnderTest,
} from '../../kit/sim-builders.ts';

describe('sim venue: close position(s)', () => {
  it('cancels open reduce-only orders on the sym first, then closes at market', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(0, 99.9, 10, 100, 10));
    t.send(
      aMarket('m', 'BUY', '2'),
      aLimit('tp', 'SELL', '1', '110', { reduceOnly: true }),
      aLimit('keep', 'BUY', '1', '90'),
    );
    t.send({ kind: 'closePosition', ref: 'close', sym: BTC, positionSide: 'NONE' });
    t.sim.advanceTo(1);
    const orders = t
      .of('order')
      .map((e) => [e.order.clientOrderId, e.order.orderState, e.order.cancelType ?? '']);
    expect(orders.slice(-3)).toEqual([
      ['tp', 'CANCELLED', 'CLOSE_POSITION'],
      ['SIM-C-5', 'NEW', ''],
      ['SIM-C-5', 'FILLED', ''],
    ]);
    const close = t.of('execution').at(-1)?.execution;
    // bought 2 at 100, sold 2 at the bid 99.9: -0.2
    expect([close?.side, close?.quantity.toFixed(), close?.price.toFixed(), close?.rpnl.toFixed()]).toEqual([
      'SELL',
      '2',
      '99.9',
      '-0.2',
    ]);
    expect(t.of('position').at(-1)?.position.positionQty.toFixed()).toBe('0');
    // the resting non-reduce-only order is left on the book
    expect(t.of('order').findLast((e) => e.order.clientOrderId === 'keep')?.order.orderState).toBe('OPEN');
  });

  it('names a close order itself (SIM-C-<n>, n of its orderId SIM-O-<n>): the close request carries no reference', () => {
    const t = aSim({ positionMode: 'BOTH' });
    t.sim.onMarket(aQuote(0, 99.9, 10, 100, 10));
    t.send(
      aMarket('l', 'BUY', '1', { positionSide: 'LONG' }),
      // A user's order holding the name the first close order would get: that one takes `-2`.
      aLimit('SIM-C-6', 'BUY', '1', '90', { positionSide: 'LONG' }),
      aMarket('s', 'SELL', '3', { positionSide: 'SHORT' }),
    );
    t.send({ kind: 'closePositions', ref: 'c', symList: [BTC] });
    t.sim.advanceTo(1);
    const closes = t
      .of('order')
      .filter((e) => e.order.reduceOnly && e.order.orderState === 'NEW')
      .map((e) => `${e.order.clientOrderId} ${e.order.orderId}`);
    expect(closes).toEqual(['SIM-C-6-2 SIM-O-6', 'SIM-C-8 SIM-O-8']);
  });

  it('names the end-of-run close’s orders after its command (`-1`, `-2` for several), which the report tells as Keel’s by', () => {
    const t = aSim({ positionMode: 'BOTH' });
    t.sim.onMarket(aQuote(0, 99.9, 10, 100, 10));
    t.send(
      aMarket('l', 'BUY', '1', { positionSide: 'LONG' }),
      aMarket('s', 'SELL', '3', { positionSide: 'SHORT' }),
    );
    t.sim.submitEndOfRunClose(asApproved({ kind: 'closePositions', ref: 'bt-end0-close', symList: [BTC] }));
    t.sim.advanceTo(1);
    expect(
      fillLines(t)
        .slice(2)
        .map((line) => line.split(' ')[0]),
    ).toEqual(['bt-end0-close-1', 'bt-end0-close-2']);
  });

  it('refuses to close a flat position with 401097', () => {
    const t = aSim();
    t.send({ kind: 'closePosition', ref: 'close', sym: BTC, positionSide: 'NONE' });
    t.sim.advanceTo(1);
    expect(t.of('commandRejected').map((e) => e.code)).toEqual([401097]);
  });

  it('rejects a symList of more than 20 syms with 401129', () => {
    const syms = Array.from({ length: 21 }, (_, i) => `BINANCE_PERP_C${i}_USDT`);
    const t = aSim({ instruments: syms.map((sym) => anInstrument(sym)) });
    t.send({ kind: 'closePositions', ref: 'all', symList: syms });
    t.send({ kind: 'closePositions', ref: 'twenty', symList: syms.slice(0, 20) });
    t.sim.advanceTo(1);
    expect(t.of('commandRejected').map((e) => [e.ref, e.code])).toEqual([
      ['all', 401129],
      ['twenty', 401097],
    ]);
  });

  it('counts symList entries, duplicates too, against the 20 (the spec: "symList symbol count exceeds 20")', () => {
    const t = aSim();
    t.send({ kind: 'closePositions', ref: 'dups', symList: Array.from({ length: 21 }, () => BTC) });
    t.sim.advanceTo(1);
    expect(t.of('commandRejected').map((e) => [e.ref, e.code, e.message])).toEqual([
      ['dups', 401129, expect.stringContaining('symList has 21 syms, at most 20')],
    ]);
  });

  it('rejects with 401129 when the reduce-only open orders across the syms exceed the limit', () => {
    const t = aSim({ maxReduceOnlyOrdersOnClose: 1 });
    t.sim.onMarket(aQuote(0, 99.9, 10, 100, 10));
    t.send(
      aMarket('m', 'BUY', '2'),
      aLimit('r1', 'SELL', '1', '110', { reduceOnly: true }),
      aLimit('r2', 'SELL', '1', '111', { reduceOnly: true }),
    );
    t.send({ kind: 'closePositions', ref: 'c', symList: [BTC] });
    t.sim.advanceTo(1);
    expect(t.of('commandRejected').map((e) => [e.ref, e.code])).toEqual([['c', 401129]]);
    expect(t.of('position').at(-1)?.position.positionQty.toFixed()).toBe('2');
  });

  it('closes both legs in BOTH mode', () => {
    const t = aSim({ positionMode: 'BOTH' });
    t.sim.onMarket(aQuote(0, 99.9, 10, 100, 10));
    t.send(
      aMarket('l', 'BUY', '1', { positionSide: 'LONG' }),
      aMarket('s', 'SELL', '3', { positionSide: 'SHORT' }),
    );
    t.send({ kind: 'closePositions', ref: 'c', symList: [BTC] });
    t.sim.advanceTo(1);
    const closes = t
      .of('execution')
      .slice(2)
      .map((e) => [
        e.execution.clientOrderId,
        e.execution.side,
        e.execution.positionSide,
        e.execution.quantity.toFixed(),
      ]);
    expect(closes).toEqual([
      ['SIM-C-5', 'SELL', 'LONG', '1'],
      ['SIM-C-7', 'BUY', 'SHORT', '3'],
    ]);
  });

  it('refuses a closePosition naming positionSide NONE in BOTH mode (400001: it names no one position), and closes the one leg it names', () => {
    const t = aSim({ positionMode: 'BOTH' });
    t.sim.onMarket(aQuote(0, 99.9, 10, 100, 10));
    t.send(
      aMarket('l', 'BUY', '1', { positionSide: 'LONG' }),
      aMarket('s', 'SELL', '3', { positionSide: 'SHORT' }),
      aMarket('l2', 'BUY', '2', { positionSide: 'LONG' }),
    );
    t.send({ kind: 'closePosition', ref: 'all', sym: BTC, positionSide: 'NONE' });
    t.send({ kind: 'closePosition', ref: 'short', sym: BTC, positionSide: 'SHORT' });
    t.sim.advanceTo(1);
    expect(t.of('commandRejected').map((e) => [e.ref, e.code, e.message])).toEqual([
      ['all', 400001, '400001 bad parameters: positionSide LONG or SHORT is required in BOTH mode'],
    ]);
    const closes = t
      .of('execution')
      .slice(3)
      .map(
        (e) =>
          `${e.execution.clientOrderId} ${e.execution.side} ${e.execution.positionSide} ${e.execution.quantity.toFixed()}`,
      );
    expect(closes).toEqual(['SIM-C-7 BUY SHORT 3']);
  });
});

/**
 * Bought 1 ETH on OKX at 2001 (fee 2.001) and sold it on Binance at 2002 (fee 2.002): the OKX
 * holding is LONG 1 and the Binance one SHORT 1, while the one ETH balance is 0 and USDT
 * 10000 - 2001 - 2.001 + 2002 - 2.002 = 9996.997.
 */
function boughtOnOneExchangeSoldOnTheOther(): SimUnderTest {
  const t = aTwoExchangeEthSim();
  t.send(aMarket('b', 'BUY', '1', { sym: OKX_ETH }), aMarket('s', 'SELL', '1', { sym: BINANCE_ETH }));
  t.sim.advanceTo(1);
  return t;
}

async function balancesOf(t: SimUnderTest): Promise<Record<string, string>> {
  const { assets } = await t.sim.snapshot();
  return Object.fromEntries(assets.map((a) => [a.coin, a.balance.toFixed()]));
}

async function holdingsOf(t: SimUnderTest): Promise<Record<string, string>> {
  const { positions } = await t.sim.snapshot();
  return Object.fromEntries(positions.map((p) => [p.sym, p.positionQty.toFixed()]));
}

describe('sim venue: closing a spot holding pays with the coin, as a spot order does', () => {
  it('refuses with 401023 a close that would sell ETH the shared balance no longer holds, selling nothing', async () => {
    const t = boughtOnOneExchangeSoldOnTheOther();
    expect(await balancesOf(t)).toEqual({ USDT: '9996.997', ETH: '0' });
    expect(await holdingsOf(t)).toEqual({ [OKX_ETH]: '1', [BINANCE_ETH]: '-1' });
    t.send({ kind: 'closePosition', ref: 'close', sym: OKX_ETH, positionSide: 'NONE' });
    t.sim.advanceTo(2);
    const [refusal] = t.of('commandRejected');
    expect([refusal?.ref, refusal?.intentKind, refusal?.code]).toEqual(['close', 'closePosition', 401023]);
    expect(refusal?.message).toMatch(/^401023 .*closing OKX_SPOT_ETH_USDT needs 1 ETH, available 0 ETH/);
    expect(t.of('execution')).toHaveLength(2);
    expect(await balancesOf(t)).toEqual({ USDT: '9996.997', ETH: '0' });
    expect(await holdingsOf(t)).toEqual({ [OKX_ETH]: '1', [BINANCE_ETH]: '-1' });
  });

  it('refuses both closes together when one sells the ETH the other would buy back, and takes them one after the other', async () => {
    const t = boughtOnOneExchangeSoldOnTheOther();
    t.send({ kind: 'closePositions', ref: 'both', symList: [BINANCE_ETH, OKX_ETH] });
    t.sim.advanceTo(2);
    expect(t.of('commandRejected').map((e) => [e.ref, e.code])).toEqual([['both', 401023]]);
    expect(t.of('commandRejected')[0]?.message).toMatch(
      /closing OKX_SPOT_ETH_USDT needs 1 ETH, available 0 ETH/,
    );
    t.send({ kind: 'closePosition', ref: 'buy-back', sym: BINANCE_ETH, positionSide: 'NONE' });
    t.send({ kind: 'closePosition', ref: 'sell', sym: OKX_ETH, positionSide: 'NONE' });
    t.sim.advanceTo(3);
    expect(fillLines(t).slice(2)).toEqual(['SIM-C-5 BUY 1@2003 TAKER', 'SIM-C-7 SELL 1@2000 TAKER']);
    // 9996.997 - 2003 - fee 2.003 + 2000 - fee 2
    expect(await balancesOf(t)).toEqual({ USDT: '9989.994', ETH: '0' });
    expect(await holdingsOf(t)).toEqual({});
  });

  it('counts the ETH an open sell keeps frozen, so the sell still has its ETH when it fills', async () => {
    const t = aTwoExchangeEthSim();
    t.send(aMarket('b', 'BUY', '1', { sym: OKX_ETH }), aLimit('tp', 'SELL', '1', '2500', { sym: OKX_ETH }));
    t.send({ kind: 'closePosition', ref: 'close', sym: OKX_ETH, positionSide: 'NONE' });
    t.sim.advanceTo(1);
    expect(t.of('commandRejected')[0]?.message).toMatch(/needs 1 ETH, available 0 ETH/);
    t.sim.onMarket(aTrade(2, 2600, 5, 'BUY', OKX_ETH));
    expect(fillLines(t)).toEqual(['b BUY 1@2001 TAKER', 'tp SELL 1@2500 MAKER']);
    // 10000 - 2001 - 2.001 + 2500 - maker fee 2
    expect(await balancesOf(t)).toEqual({ USDT: '10494.999', ETH: '0' });
  });

  it('does not count what its own reduce-only orders freeze: it cancels them first', async () => {
    const t = aTwoExchangeEthSim();
    t.send(
      aMarket('b', 'BUY', '1', { sym: OKX_ETH }),
      aLimit('tp', 'SELL', '1', '2500', { sym: OKX_ETH, reduceOnly: true }),
    );
    t.send({ kind: 'closePosition', ref: 'close', sym: OKX_ETH, positionSide: 'NONE' });
    t.sim.advanceTo(1);
    expect(t.of('commandRejected')).toEqual([]);
    expect(
      t.of('order').find((e) => e.order.clientOrderId === 'tp' && e.order.orderState === 'CANCELLED'),
    ).toBeDefined();
    expect(fillLines(t)).toEqual(['b BUY 1@2001 TAKER', 'SIM-C-4 SELL 1@2000 TAKER']);
    // 10000 - 2001 - 2.001 + 2000 - 2
    expect(await balancesOf(t)).toEqual({ USDT: '9994.999', ETH: '0' });
  });

  it('refuses a BOTH-mode close of both legs that would sell the LONG leg before buying back the SHORT one', async () => {
    const t = aSim({
      instruments: [anEthSpot({ tickSize: D('0.01') })],
      startingBalances: { USDT: D('10000') },
      positionMode: 'BOTH',
    });
    t.sim.onMarket(aQuote(0, 2000, 5, 2001, 5, OKX_ETH));
    t.send(
      aMarket('l', 'BUY', '1', { sym: OKX_ETH, positionSide: 'LONG' }),
      aMarket('s', 'SELL', '1', { sym: OKX_ETH, positionSide: 'SHORT' }),
    );
    t.send({ kind: 'closePositions', ref: 'all', symList: [OKX_ETH] });
    t.sim.advanceTo(1);
    expect(t.of('commandRejected').map((e) => e.code)).toEqual([401023]);
    t.send({ kind: 'closePosition', ref: 'short', sym: OKX_ETH, positionSide: 'SHORT' });
    t.send({ kind: 'closePosition', ref: 'long', sym: OKX_ETH, positionSide: 'LONG' });
    t.sim.advanceTo(2);
    expect(fillLines(t).slice(2)).toEqual(['SIM-C-5 BUY 1@2001 TAKER', 'SIM-C-7 SELL 1@2000 TAKER']);
    expect((await balancesOf(t)).ETH).toBe('0');
  });

  it('counts the fee of each buy-back close in what the next one may pay, refusing what the quote balance cannot cover', async () => {
    // Two 1 ETH shorts bought back with USDT: 2002.5 + 2.0025 fee each at the mark; 8 USDT plus
    // the two sales' proceeds leave 2003.4975 for the second after the first paid its fee.
    const t = aTwoExchangeEthSim({ startingBalances: { USDT: D('8'), ETH: D('2') } });
    t.send(aMarket('s1', 'SELL', '1', { sym: OKX_ETH }), aMarket('s2', 'SELL', '1', { sym: BINANCE_ETH }));
    t.sim.advanceTo(1);
    const before = (await balancesOf(t)).USDT;
    t.send({ kind: 'closePositions', ref: 'both', symList: [OKX_ETH, BINANCE_ETH] });
    t.sim.advanceTo(2);
    expect(t.of('commandRejected').map((e) => e.message)).toEqual([
      expect.stringContaining(
        '401023 insufficient margin: closing BINANCE_SPOT_ETH_USDT needs 2004.5025 USDT (cost 2002.5 + fee 2.0025), available 2003.4975 USDT',
      ),
    ]);
    expect(fillLines(t)).toHaveLength(2);
    expect((await balancesOf(t)).USDT).toBe(before);
  });
});

describe('sim venue: a one-leg close in BOTH mode', () => {
  /** LONG 2 and SHORT 3 on BTC, each leg with a reduce-only limit resting against it. */
  function hedgedWithReduceOnlyOrders(maxReduceOnlyOrdersOnClose?: number): SimUnderTest {
    const t = aSim({
      positionMode: 'BOTH',
      ...(maxReduceOnlyOrdersOnClose === undefined ? {} : { maxReduceOnlyOrdersOnClose }),
    });
    t.sim.onMarket(aQuote(0, 99.9, 10, 100, 10));
    t.send(
      aMarket('l', 'BUY', '2', { positionSide: 'LONG' }),
      aMarket('s', 'SELL', '3', { positionSide: 'SHORT' }),
      aLimit('long-tp', 'SELL', '1', '110', { positionSide: 'LONG', reduceOnly: true }),
      aLimit('short-tp', 'BUY', '1', '90', { positionSide: 'SHORT', reduceOnly: true }),
      aLimit('short-tp2', 'BUY', '1', '89', { positionSide: 'SHORT', reduceOnly: true }),
    );
    return t;
  }

  it("cancels that leg's reduce-only orders only, as it does its reduce-only algo orders: the other leg's stay", () => {
    const t = hedgedWithReduceOnlyOrders();
    t.send({ kind: 'closePosition', ref: 'c', sym: BTC, positionSide: 'LONG' });
    t.sim.advanceTo(1);
    const last = (ref: string) =>
      t.of('order').findLast((e) => e.order.clientOrderId === ref)?.order.orderState;
    expect([last('long-tp'), last('short-tp'), last('short-tp2')]).toEqual(['CANCELLED', 'OPEN', 'OPEN']);
  });

  it("counts that leg's reduce-only orders only against the 401129 limit", () => {
    const t = hedgedWithReduceOnlyOrders(1);
    t.send({ kind: 'closePosition', ref: 'long', sym: BTC, positionSide: 'LONG' });
    t.send({ kind: 'closePosition', ref: 'short', sym: BTC, positionSide: 'SHORT' });
    t.sim.advanceTo(1);
    expect(t.of('commandRejected').map((e) => [e.ref, e.code])).toEqual([['short', 401129]]);
  });
});

describe('sim venue: closing a NET-mode position', () => {
  it('refuses a positionSide other than NONE with 400001, as an order with one is refused, closing nothing', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(0, 99.9, 10, 100, 10));
    t.send(aMarket('m', 'BUY', '2'));
    t.send({ kind: 'closePosition', ref: 'c', sym: BTC, positionSide: 'LONG' });
    t.sim.advanceTo(1);
    expect(t.of('commandRejected').map((e) => [e.ref, e.code, e.message])).toEqual([
      ['c', 400001, '400001 bad parameters: positionSide must be NONE in NET mode'],
    ]);
    expect(t.of('position').at(-1)?.position.positionQty.toFixed()).toBe('2');
  });
});
