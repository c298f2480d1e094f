import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { reduceOnlyCheck } from '../../../core/risk/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aLimitOrder, aMarketOrder, aSellStop } from '../../kit/intent-builders.ts';
import { anOrder } from '../../kit/order-builders.ts';
import { expectApproved, expectDenied } from '../../kit/risk-expectations.ts';
import { aRiskView } from '../../kit/risk-view-builder.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const ETH = 'BINANCE_PERP_ETH_USDT';
const AAPL = 'US_EQUITY_AAPL';
const anEquity = () =>
  anInstrument(AAPL, { lotSize: D(1), minSize: D(1), tickSize: D('0.01'), settleAsset: 'USD' });

describe('order book checks', () => {
  describe('maxOrdersPerSym (the instrument maxNumOrders)', () => {
    it('denies a new order when the sym already has maxNumOrders open', () => {
      const view = aRiskView();
      view.instruments.set(BTC, anInstrument(BTC, { maxNumOrders: 2 }));
      view.orders = [
        { strategyId: 'other', order: anOrder({ clientOrderId: 'a' }) },
        { strategyId: 'other', order: anOrder({ clientOrderId: 'b' }) },
      ];
      expectDenied('maxOrdersPerSym', aLimitOrder(), view);
    });
    it("counts only the sym's open orders: other syms' and finished ones leave room", () => {
      const view = aRiskView();
      view.instruments.set(BTC, anInstrument(BTC, { maxNumOrders: 2 }));
      view.orders = [
        { strategyId: 'other', order: anOrder({ clientOrderId: 'a' }) },
        { strategyId: 'other', order: anOrder({ clientOrderId: 'b', sym: 'BINANCE_PERP_ETH_USDT' }) },
        { strategyId: 'other', order: anOrder({ clientOrderId: 'c', orderState: 'FILLED' }) },
      ];
      expectApproved(aLimitOrder(), view);
    });
    it('passes below maxNumOrders', () => {
      const view = aRiskView();
      view.instruments.set(BTC, anInstrument(BTC, { maxNumOrders: 2 }));
      view.orders = [{ strategyId: 'other', order: anOrder({ clientOrderId: 'a' }) }];
      expectApproved(aLimitOrder(), view);
    });
  });

  describe('modifyTarget', () => {
    it("denies modifying another strategy's order", () => {
      const view = aRiskView();
      view.orders = [{ strategyId: 'other', order: anOrder({ clientOrderId: 'theirs' }) }];
      expectDenied(
        'modifyTarget',
        { kind: 'modifyOrder', ref: 'm', target: 'theirs', sym: BTC, price: D('99') },
        view,
      );
    });
    it('denies modifying its own order once it is final, and one nobody placed', () => {
      const view = aRiskView();
      view.orders = [{ strategyId: 's1', order: anOrder({ clientOrderId: 'done', orderState: 'FILLED' }) }];
      expectDenied(
        'modifyTarget',
        { kind: 'modifyOrder', ref: 'm', target: 'done', sym: BTC, price: D('99') },
        view,
      );
      expectDenied(
        'modifyTarget',
        { kind: 'modifyOrder', ref: 'm2', target: 'unknown', sym: BTC, price: D('99') },
        view,
      );
    });
    it('denies a new qty that does not exceed what the order has filled, and passes one above it', () => {
      const view = aRiskView();
      const partly = anOrder({
        clientOrderId: 'mine',
        orderState: 'PARTIALLY_FILLED',
        orderQty: D('2'),
        executedQty: D('0.5'),
      });
      view.orders = [{ strategyId: 's1', order: partly }];
      const modify = (qty: string) =>
        ({ kind: 'modifyOrder', ref: 'm', target: 'mine', sym: BTC, qty: D(qty) }) as const;
      expect(expectDenied('modifyTarget', modify('0.5'), view)).toContain(
        'does not exceed the 0.5 mine has filled',
      );
      expectDenied('modifyTarget', modify('0.4'), view);
      expectApproved(modify('0.6'), view);
    });
    it('denies replacing an algo order it knows nothing of, whose terms no size or limit check could judge', () => {
      expectDenied(
        'modifyTarget',
        { kind: 'replaceAlgoOrder', ref: 'r', target: 'no-such-algo', sym: BTC, qty: D('5') },
        aRiskView(),
      );
    });
    it('passes modifying its own open order', () => {
      const view = aRiskView();
      view.orders = [{ strategyId: 's1', order: anOrder({ clientOrderId: 'mine' }) }];
      expectApproved({ kind: 'modifyOrder', ref: 'm', target: 'mine', sym: BTC, price: D('99') }, view);
    });
  });

  describe('reduceOnly', () => {
    it('denies a reduce-only order on the same side as the position', () => {
      const view = aRiskView();
      view.setPosition(BTC, '2');
      const reason = expectDenied('reduceOnly', aLimitOrder({ reduceOnly: true }), view);
      expect(reason).toBe(`reduce-only BUY 1 ${BTC} (ref-1) would add to the position of 2, not reduce it`);
    });
    it('denies a reduce-only order with no position to reduce', () => {
      const reason = expectDenied('reduceOnly', aLimitOrder({ side: 'SELL', reduceOnly: true }), aRiskView());
      expect(reason).toBe(`reduce-only SELL 1 ${BTC} (ref-1) has no position to reduce`);
    });
    it('passes a crypto reduce-only order larger than the position: the venue trims it (SELL 1 against a 0.5 long reduces it)', () => {
      const view = aRiskView();
      view.setPosition(BTC, '0.5');
      expectApproved(aLimitOrder({ side: 'SELL', reduceOnly: true }), view);
      expectApproved(aMarketOrder({ side: 'SELL', reduceOnly: true }), view);
    });
    it("denies a US equity's reduce-only order larger than the position: PLACE_ORDER has no such flag, the venue would open the rest", () => {
      const view = aRiskView();
      view.instruments.set(AAPL, anEquity());
      view.setPosition(AAPL, '5');
      const reason = expectDenied(
        'reduceOnly',
        aLimitOrder({ sym: AAPL, side: 'SELL', qty: D(8), reduceOnly: true }),
        view,
      );
      expect(reason).toContain(`reduce-only SELL 8 ${AAPL} (ref-1) is larger than the position of 5`);
      expectApproved(aLimitOrder({ sym: AAPL, side: 'SELL', qty: D(5), reduceOnly: true }), view);
    });
    it('passes a reduce-only order exactly when it is opposite to a non-zero position, and on a US equity no larger than it (property)', () => {
      fc.assert(
        fc.property(
          fc.constantFrom(BTC, AAPL),
          fc.constantFrom('NET' as const, 'BOTH' as const),
          fc.integer({ min: -20, max: 20 }),
          fc.integer({ min: 1, max: 30 }),
          fc.constantFrom('BUY' as const, 'SELL' as const),
          (sym, mode, positionUnits, orderUnits, side) => {
            const view = aRiskView();
            view.instruments.set(AAPL, anEquity());
            view.mode = mode;
            const unit = sym === AAPL ? D(1) : D('0.001');
            const position = unit.mul(positionUnits);
            const leg = mode === 'NET' ? 'NONE' : position.isNegative() ? 'SHORT' : 'LONG';
            const orderLeg = mode === 'NET' ? 'NONE' : side === 'SELL' ? 'LONG' : 'SHORT';
            view.setPosition(sym, position.toFixed(), leg);
            const qty = unit.mul(orderUnits);
            const intent = aLimitOrder({ sym, side, qty, reduceOnly: true, positionSide: orderLeg });
            const denial = reduceOnlyCheck.run({
              strategyId: 's1',
              intent,
              view,
              limits: {},
              scope: 'portfolio',
            });
            const held = view.positionQty(sym, orderLeg);
            const opposite = side === 'SELL' ? held.gt(0) : held.lt(0);
            const fits = sym !== AAPL || qty.lte(held.abs());
            expect(denial === undefined).toBe(opposite && fits);
          },
        ),
        { numRuns: 300 },
      );
    });
    it('passes a reduce-only order that reduces, in NET and BOTH mode', () => {
      const view = aRiskView();
      view.setPosition(BTC, '-2');
      expectApproved(aLimitOrder({ reduceOnly: true }), view);
      const both = aRiskView();
      both.mode = 'BOTH';
      both.setPosition(BTC, '1', 'LONG');
      expectApproved(aLimitOrder({ side: 'SELL', positionSide: 'LONG', reduceOnly: true }), both);
    });
    it('leaves reduce-only algo orders to the venue: they act when triggered', () => {
      const stop = aSellStop({ triggerType: 'MarkPrice' });
      expectApproved(stop, aRiskView());
    });
    it('leaves a new reduce-only trailing stop to its release, as an algo order: its order is judged when it fires', () => {
      const trailingStop = { offsetType: 'TICKS', offset: D(5), triggerOn: 'last' } as const;
      const stop = aMarketOrder({ side: 'SELL', reduceOnly: true, trailingStop });
      expectApproved(stop, aRiskView());
      const { trailingStop: _released, ...order } = stop;
      expectDenied('reduceOnly', order, aRiskView());
    });
    it('passes a closePosition, or a closePositions of BTC and a flat ETH, exactly when a leg it reaches is open or an open order could open it, and says so when it denies (property)', () => {
      const sides = ['NONE', 'LONG', 'SHORT'] as const;
      fc.assert(
        fc.property(
          fc.constantFrom(...sides, 'closePositions' as const),
          fc.record({ NONE: fc.integer({ min: -2, max: 2 }), LONG: fc.nat(2), SHORT: fc.nat(2) }),
          fc.array(
            fc.record({
              positionSide: fc.constantFrom(...sides),
              side: fc.constantFrom('BUY' as const, 'SELL' as const),
              reduceOnly: fc.boolean(),
              orderState: fc.constantFrom('NEW' as const, 'PARTIALLY_FILLED' as const, 'FILLED' as const),
            }),
            { maxLength: 3 },
          ),
          (closed, legs, orders) => {
            const view = aRiskView();
            view.setPosition(BTC, String(legs.NONE));
            view.setPosition(BTC, String(legs.LONG), 'LONG');
            view.setPosition(BTC, String(-legs.SHORT), 'SHORT');
            view.orders = orders.map((o, i) => ({
              strategyId: 's1',
              order: anOrder({ clientOrderId: `o${i}`, orderType: 'MARKET', ...o }),
            }));
            const close =
              closed === 'closePositions'
                ? ({ kind: 'closePositions', ref: 'cp', symList: [ETH, BTC] } as const)
                : ({ kind: 'closePosition', ref: 'cp', sym: BTC, positionSide: closed } as const);
            const reached = closed === 'NONE' || closed === 'closePositions' ? sides : [closed];
            const opens = (leg: (typeof sides)[number]) =>
              orders.some(
                (o) =>
                  o.positionSide === leg &&
                  o.orderState !== 'FILLED' &&
                  !o.reduceOnly &&
                  // A hedge leg's order on its closing side only reduces it.
                  (leg === 'NONE' || (leg === 'LONG') === (o.side === 'BUY')),
              );
            const mayClose = reached.some((leg) => legs[leg] !== 0 || opens(leg));
            const denial = reduceOnlyCheck.run({
              strategyId: 's1',
              intent: close,
              view,
              limits: {},
              scope: 'portfolio',
            });
            expect(denial === undefined).toBe(mayClose);
            if (denial !== undefined) expect(denial.reason).toContain('no open or sent order could open one');
          },
        ),
        { numRuns: 300 },
      );
    });
    it('denies closing a position that is flat and passes closing an open one', () => {
      const view = aRiskView();
      const close = { kind: 'closePosition', ref: 'cp', sym: BTC, positionSide: 'NONE' } as const;
      expectDenied('reduceOnly', close, view);
      view.setPosition(BTC, '1');
      expectApproved(close, view);
    });
    it('denies a closePositions whose syms are all flat, naming them, and passes one with a sym to close', () => {
      const view = aRiskView();
      view.instruments.set(ETH, anInstrument(ETH));
      const close = { kind: 'closePositions', ref: 'cps', symList: [BTC, ETH] } as const;
      expect(expectDenied('reduceOnly', close, view)).toBe(
        `closePositions cps: there is no ${BTC} or ${ETH} position to close, and no open or sent order could open one before the close reaches the venue`,
      );
      view.setPosition(ETH, '-1');
      expectApproved(close, view);
    });
  });

  describe('closePositionsSymList', () => {
    it('denies more than 20 syms in one closePositions', () => {
      const view = aRiskView();
      const symList = Array.from({ length: 21 }, (_, i) => `BINANCE_PERP_C${i}_USDT`);
      for (const sym of symList) view.instruments.set(sym, anInstrument(sym));
      expectDenied('closePositionsSymList', { kind: 'closePositions', ref: 'cps', symList }, view);
    });
    it('passes 20 syms', () => {
      const view = aRiskView();
      const symList = Array.from({ length: 20 }, (_, i) => `BINANCE_PERP_C${i}_USDT`);
      for (const sym of symList) view.instruments.set(sym, anInstrument(sym));
      // One of them to close: a list of flat syms is the reduceOnly check's denial.
      view.setPosition('BINANCE_PERP_C19_USDT', '1');
      expectApproved({ kind: 'closePositions', ref: 'cps', symList }, view);
    });
  });
});
