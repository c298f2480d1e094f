import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Account, Position, UserEvent } from '../../../core/model/index.ts';
import { D } from '../../../core/model/index.ts';
import { aLimit, aMark, aMarket, aQuote, aSim, BTC } from '../../kit/sim-builders.ts';

function positionsOf(events: readonly UserEvent[]): Position[] {
  return events.flatMap((event) => (event.kind === 'position' ? [event.position] : []));
}

function accountsOf(events: readonly UserEvent[]): Account[] {
  return events.flatMap((event) => (event.kind === 'account' ? [event.account] : []));
}

/** The first event of a kind after the execution of an order. */
function afterFillOf<K extends UserEvent['kind']>(
  events: readonly UserEvent[],
  ref: string,
  kind: K,
): Extract<UserEvent, { kind: K }> {
  const fill = events.findIndex((e) => e.kind === 'execution' && e.execution.clientOrderId === ref);
  return events.slice(fill).find((e) => e.kind === kind) as Extract<UserEvent, { kind: K }>;
}

describe('sim venue: the Accounts-channel view', () => {
  afterEach(() => vi.restoreAllMocks());

  it('divides for the risk ratio of an account reported with a fill only when it is read, once', () => {
    const t = aSim({ startingBalances: { USDT: D('200') } });
    t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    t.sim.onMarket(aMark(0, 100));
    const div = vi.spyOn(D.prototype, 'div');
    t.send(aMarket('m', 'BUY', '10'));
    t.sim.onMarket(aMark(1, 100));
    const account = accountsOf(t.events).at(-1) as Account;
    const before = div.mock.calls.length;
    const ratio = account.riskRatio;
    expect(div.mock.calls.length - before).toBe(1);
    expect(account.riskRatio).toBe(ratio);
    expect(div.mock.calls.length - before).toBe(1);
    vi.restoreAllMocks();
    expect(ratio.eq(account.maintainMargin.div(account.equity))).toBe(true);
  });

  it('reports MARGIN_CALL exactly when maintenance margin / equity reaches the call ratio (0.8)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 8040, max: 8200 }), (markCents) => {
        // Long 10 @ 100 on 200 USDT at leverage 10: MARGIN_CALL from 80.5 down, liquidation below 80.45.
        const t = aSim({ startingBalances: { USDT: D('200') } });
        t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
        t.sim.onMarket(aMark(0, 100));
        t.send(aMarket('m', 'BUY', '10'));
        t.sim.onMarket(aMark(1, markCents / 100));
        for (const account of accountsOf(t.events)) {
          const exact = account.maintainMargin.div(account.equity);
          expect(account.riskRatio.eq(exact)).toBe(true);
          if (account.accountStatus !== 'LIQUIDATION')
            expect(account.accountStatus).toBe(exact.gte('0.8') ? 'MARGIN_CALL' : 'NORMAL');
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('sim venue: the Positions-channel view', () => {
  afterEach(() => vi.restoreAllMocks());

  it('divides for the liqPrice of a position reported with a fill only when it is read, once', () => {
    const t = aSim({ startingBalances: { USDT: D('200') } });
    t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    t.sim.onMarket(aMark(0, 100));
    const div = vi.spyOn(D.prototype, 'div');
    t.send(aMarket('m', 'BUY', '10'));
    t.sim.onMarket(aMark(1, 100));
    const position = positionsOf(t.events).at(-1) as Position;
    const before = div.mock.calls.length;
    const liqPrice = position.liqPrice;
    expect(div.mock.calls.length - before).toBe(1);
    expect(position.liqPrice).toBe(liqPrice);
    expect(div.mock.calls.length - before).toBe(1);
    vi.restoreAllMocks();
    // Long 10 @ 100 on 200 USDT less the fee, mmr 0.005: equity meets maintenance near 80.44.
    expect(liqPrice.toNumber()).toBeGreaterThan(80);
    expect(liqPrice.toNumber()).toBeLessThan(81);
  });

  it('works out nothing of the liqPrice of a position reported with a fill until it is read', () => {
    const t = aSim({ startingBalances: { USDT: D('200') } });
    t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    t.sim.onMarket(aMark(0, 100));
    // Of a fill opening a long from flat, only the liqPrice negates (its -equity).
    const neg = vi.spyOn(D.prototype, 'neg');
    t.send(aMarket('m', 'BUY', '10'));
    t.sim.onMarket(aMark(1, 100));
    expect(neg).not.toHaveBeenCalled();
    const position = positionsOf(t.events).at(-1) as Position;
    // Read after the venue moved on (a new mark, another fill), it is the liqPrice of its moment.
    t.sim.onMarket(aQuote(2, 109.9, 100, 110, 100));
    t.sim.onMarket(aMark(2, 110));
    t.send(aMarket('m2', 'BUY', '5'));
    t.sim.onMarket(aMark(3, 110));
    expect(positionsOf(t.events).at(-1)?.positionQty.toFixed()).toBe('15');
    vi.restoreAllMocks();
    // liqPrice p: 199.5 + 10 (p - 100) = 10 p x 0.005 -> p = 800.5 / 9.95
    expect(position.liqPrice.toFixed(30)).toBe(D('800.5').div('9.95').toFixed(30));
  });

  it('keeps the liqPrice and the risk ratio in their places among the fields of copies and JSON', () => {
    const t = aSim({ startingBalances: { USDT: D('200') } });
    t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    t.sim.onMarket(aMark(0, 100));
    t.send(aMarket('m', 'BUY', '10'));
    t.sim.onMarket(aMark(1, 100));
    const position = positionsOf(t.events).at(-1) as Position;
    expect(Object.keys(position)).toEqual([
      'positionId',
      'portfolioId',
      'sym',
      'positionSide',
      'positionQty',
      'avgPrice',
      'markPrice',
      'positionValue',
      'positionMargin',
      'positionMM',
      'unrealizedPNL',
      'leverage',
      'liqPrice',
      'adlRank',
      'createAt',
      'updateAt',
    ]);
    expect({ ...position }.liqPrice).toBe(position.liqPrice);
    expect(JSON.parse(JSON.stringify(position)).liqPrice).toBe(position.liqPrice.toString());
    const account = accountsOf(t.events).at(-1) as Account;
    expect(Object.keys(account)).toEqual([
      'portfolioId',
      'equity',
      'availableMargin',
      'maintainMargin',
      'riskRatio',
      'accountStatus',
      'positionMode',
    ]);
    expect({ ...account }.riskRatio).toBe(account.riskRatio);
  });
});

describe('sim venue: the initial margin of the views of a fill', () => {
  afterEach(() => vi.restoreAllMocks());

  it('divides for no margin of the position, asset and account reported with a fill until one is read', () => {
    const t = aSim({ startingBalances: { USDT: D('200') } });
    t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    t.sim.onMarket(aMark(0, 100));
    const div = vi.spyOn(D.prototype, 'div');
    t.send(aMarket('m', 'BUY', '10'));
    t.sim.onMarket(aMark(1, 100));
    expect(div).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    // Long 10 @ 100 at leverage 10: margin 100; balance 200 less the 0.5 fee.
    expect(afterFillOf(t.events, 'm', 'position').position.positionMargin.toFixed()).toBe('100');
    const asset = afterFillOf(t.events, 'm', 'asset').asset;
    expect([asset.frozen.toFixed(), asset.available.toFixed()]).toEqual(['100', '99.5']);
    expect(Object.keys(asset)).toEqual([
      'coin',
      'balance',
      'available',
      'frozen',
      'equity',
      'borrow',
      'upnl',
    ]);
    expect(afterFillOf(t.events, 'm', 'account').account.availableMargin.toFixed()).toBe('99.5');
  });

  it('counts the open orders of the moment of the fill, read after they are gone', () => {
    const t = aSim({ startingBalances: { USDT: D('1000') } });
    t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    t.sim.onMarket(aMark(0, 100));
    t.send(aLimit('l', 'BUY', '5', '90'), aMarket('m', 'BUY', '1'));
    t.sim.onMarket(aMark(1, 100));
    t.send({ kind: 'cancelOrder', ref: 'c', target: 'l', sym: BTC });
    t.sim.onMarket(aMark(2, 100));
    expect(t.of('order').at(-1)?.order.orderState).toBe('CANCELLED');
    // Margin 1 x 100 / 10 for the position and 5 x 90 / 10 for the resting limit; fee 0.05.
    expect(afterFillOf(t.events, 'm', 'account').account.availableMargin.toFixed()).toBe('944.95');
    expect(afterFillOf(t.events, 'm', 'asset').asset.frozen.toFixed()).toBe('55');
  });
});
