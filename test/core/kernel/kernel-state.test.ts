import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { OrderState, QuoteEvent } from '../../../core/model/index.ts';
import { D, IN_FLIGHT_ORDER_STATES, VENUE_ORDER_STATES } from '../../../core/model/index.ts';
import { Portfolio } from '../../../core/portfolio/index.ts';
import { anExecution } from '../../kit/execution-builders.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import {
  aFeedBar,
  anAccountUpdate,
  anOrderUpdate,
  aPositionUpdate,
  aQuote,
  aTrade,
  BTC,
  ETH,
} from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';

const idle = defineStrategy({ name: 'idle', params: z.object({}) });

describe('kernel state: the fold of every event', () => {
  it('keeps the latest quote, trade and bar per sym and derives the reference price', () => {
    const { kernel } = aKernelRig([]);
    kernel.push(aTrade(1, 99.5));
    expect(kernel.state.referencePrice(BTC)).toBe(99.5);
    kernel.push(aQuote(2, 100, 102));
    kernel.push(aQuote(3, 200, 202, ETH));
    kernel.push(aFeedBar(0, [1, 2, 0.5, 1.5, 10]));
    expect(kernel.state.quotes.get(BTC)?.ts).toBe(2);
    expect(kernel.state.referencePrice(BTC)).toBe(101);
    expect(kernel.state.referencePrice(ETH)).toBe(201);
    expect(kernel.state.bar(BTC, '1m')?.close).toBe(1.5);
    expect(kernel.state.referencePrice('OKX_SPOT_SOL_USDT')).toBeUndefined();
  });

  it('property: after any sequence of quotes, each sym holds its last quote', () => {
    const quote = fc
      .tuple(fc.constantFrom(BTC, ETH), fc.integer({ min: 1, max: 1_000 }))
      .map(([sym, bid]) => ({ sym, bid }));
    fc.assert(
      fc.property(fc.array(quote, { minLength: 1, maxLength: 50 }), (quotes) => {
        const { kernel } = aKernelRig([]);
        const last = new Map<string, QuoteEvent>();
        quotes.forEach(({ sym, bid }, i) => {
          const event = aQuote(i, bid, bid + 1, sym);
          last.set(sym, event);
          kernel.push(event);
        });
        for (const sym of [BTC, ETH]) expect(kernel.state.quotes.get(sym)).toBe(last.get(sym));
      }),
    );
  });

  it('indexes orders by orderId and clientOrderId, and a final order never changes again', () => {
    const { kernel } = aKernelRig([]);
    const order = anOrder({ orderId: 'o-9', clientOrderId: 'ext-1', updateAt: 10 });
    kernel.push(anOrderUpdate(order));
    expect(kernel.state.orders.byId.get('o-9')).toBe(order);
    expect(kernel.state.openOrders().map((o) => o.clientOrderId)).toEqual(['ext-1']);
    kernel.push(anOrderUpdate({ ...order, orderState: 'CANCELLED', updateAt: 20 }));
    kernel.push(anOrderUpdate({ ...order, orderState: 'OPEN', updateAt: 30 }));
    expect(kernel.state.orderByRef('ext-1')?.orderState).toBe('CANCELLED');
    expect(kernel.state.openOrders()).toEqual([]);
  });

  it('property: any reordering of NEW, OPEN, PARTIALLY_FILLED, FILLED ends FILLED and not open', () => {
    const path: readonly OrderState[] = ['NEW', 'OPEN', 'PARTIALLY_FILLED', 'FILLED'];
    fc.assert(
      fc.property(fc.shuffledSubarray([0, 1, 2, 3], { minLength: 4, maxLength: 4 }), (order) => {
        const { kernel } = aKernelRig([]);
        for (const i of order) {
          kernel.push(anOrderUpdate(anOrder({ clientOrderId: 'c', orderState: path[i], updateAt: 10 + i })));
        }
        expect(kernel.state.orderByRef('c')?.orderState).toBe('FILLED');
        expect(kernel.state.openOrders()).toEqual([]);
      }),
    );
  });

  it('drops an update older than the last venue update of the same order (late or duplicated frame)', () => {
    const { kernel } = aKernelRig([]);
    kernel.push(anOrderUpdate(anOrder({ clientOrderId: 'c', orderState: 'PARTIALLY_FILLED', updateAt: 20 })));
    kernel.push(anOrderUpdate(anOrder({ clientOrderId: 'c', orderState: 'OPEN', updateAt: 10 })));
    expect(kernel.state.orderByRef('c')?.orderState).toBe('PARTIALLY_FILLED');
  });

  it('keeps positions per sym and positionSide, signed (a SHORT leg is negative)', () => {
    const { kernel } = aKernelRig([]);
    kernel.push(aPositionUpdate(1, '2', { positionSide: 'LONG' }));
    kernel.push(aPositionUpdate(2, '3', { positionSide: 'SHORT', adlRank: 4 }));
    kernel.push(aPositionUpdate(3, '-1.5', { sym: ETH }));
    expect(kernel.state.positionQty(BTC, 'LONG').toFixed()).toBe('2');
    expect(kernel.state.positionQty(BTC, 'SHORT').toFixed()).toBe('-3');
    expect(kernel.state.positionQty(ETH, 'NONE').toFixed()).toBe('-1.5');
    expect(kernel.state.positionQty(ETH, 'LONG').toFixed()).toBe('0');
    expect(kernel.state.adlRanks.get(`${BTC}|SHORT`)).toBe(4);
  });

  it('folds assets, account (with position mode), loans, algo orders, liquidation and ADL signals', () => {
    const { kernel } = aKernelRig([]);
    const account = {
      portfolioId: 'p-1',
      equity: D('1000'),
      availableMargin: D('800'),
      maintainMargin: D('50'),
      riskRatio: D('0.05'),
      accountStatus: 'NORMAL' as const,
      positionMode: 'BOTH' as const,
    };
    expect(kernel.state.positionMode()).toBe('NET');
    kernel.push({ kind: 'account', ts: 1, recvTs: 1, account });
    const asset = {
      coin: 'USDT',
      balance: D('900'),
      available: D('700'),
      frozen: D('200'),
      equity: D('950'),
      borrow: D('0'),
      upnl: D('50'),
    };
    kernel.push({ kind: 'asset', ts: 2, recvTs: 2, asset });
    const loan = {
      exchange: 'BINANCE',
      coin: 'USDT',
      principal: D('100'),
      interest: D('0'),
      annualRate: D('0.08'),
      updateAt: 3,
    };
    kernel.push({ kind: 'loan', ts: 3, recvTs: 3, loan });
    kernel.push({
      kind: 'adlRank',
      ts: 4,
      recvTs: 4,
      sym: BTC,
      positionId: 'x',
      positionSide: 'LONG',
      rank: 5,
    });
    const record = {
      liquidationEventId: 'liq-1',
      portfolioId: 'p-1',
      eventType: 'PARTIAL_LIQUIDATION' as const,
      nodeType: 'TRIGGERED' as const,
      equity: D('10'),
      maintainMargin: D('20'),
      positions: [],
      timestamp: 5,
    };
    kernel.push({ kind: 'liquidationEvent', ts: 5, recvTs: 5, record });
    const algoOrder = {
      algoOrderId: 'a-1',
      clientAlgoOrderId: 'ca-1',
      portfolioId: 'p-1',
      sym: BTC,
      side: 'SELL' as const,
      algoOrderType: 'TRIGGER' as const,
      conditionType: 'LTE' as const,
      triggerType: 'LastPrice' as const,
      triggerPrice: D('90'),
      price: D('0'),
      qty: D('1'),
      reduceOnly: true,
      positionSide: 'LONG' as const,
      state: 'NEW' as const,
      createAt: 6,
      updateAt: 6,
    };
    kernel.push({ kind: 'algoOrder', ts: 6, recvTs: 6, algoOrder });
    expect(kernel.state.positionMode()).toBe('BOTH');
    expect(kernel.state.equity().toFixed()).toBe('1000');
    expect(kernel.state.assets.get('USDT')).toBe(asset);
    expect(kernel.state.loans.get('BINANCE|USDT')).toBe(loan);
    expect(kernel.state.adlRanks.get(`${BTC}|LONG`)).toBe(5);
    expect(kernel.state.liquidation?.nodeType).toBe('TRIGGERED');
    expect(kernel.state.openAlgoOrders().map((a) => a.clientAlgoOrderId)).toEqual(['ca-1']);
    kernel.push({
      kind: 'algoOrder',
      ts: 7,
      recvTs: 7,
      algoOrder: { ...algoOrder, state: 'TRIGGERED', updateAt: 7 },
    });
    expect(kernel.state.openAlgoOrders()).toEqual([]);
  });

  it('gives strategies read access to the same state through the context', () => {
    const seen: string[] = [];
    const reader = defineStrategy({
      name: 'reader',
      params: z.object({}),
      onPosition: (ctx, position) => {
        seen.push(
          `${position.sym} net ${ctx.netQty(position.sym).toFixed()} bal ${ctx.balance('USDT').toFixed()}`,
        );
      },
    });
    const { kernel } = aKernelRig([
      { id: 'r', strategy: reader },
      { id: 'i', strategy: idle },
    ]);
    kernel.push(aPositionUpdate(1, '2', { positionSide: 'LONG' }));
    kernel.push(aPositionUpdate(2, '0.5', { positionSide: 'SHORT' }));
    expect(seen).toEqual([`${BTC} net 2 bal 0`, `${BTC} net 1.5 bal 0`]);
  });

  it('lists the outstanding loans to strategies, one per exchange and coin, without those repaid', () => {
    let read: (coin?: string) => string[] = () => [];
    const reader = defineStrategy({
      name: 'loan-reader',
      params: z.object({}),
      onStart: (ctx) => {
        read = (coin) => ctx.loans(coin).map((l) => `${l.exchange} ${l.coin} ${l.principal.toFixed()}`);
      },
    });
    const { kernel } = aKernelRig([{ id: 'r', strategy: reader }]);
    const loan = (ts: number, exchange: string, coin: string, principal: string, interest = '0') =>
      kernel.push({
        kind: 'loan',
        ts,
        recvTs: ts,
        loan: {
          exchange,
          coin,
          principal: D(principal),
          interest: D(interest),
          annualRate: D('0.08'),
          updateAt: ts,
        },
      });
    loan(1, 'BINANCE', 'USDT', '100');
    loan(2, 'OKX', 'USDT', '50');
    loan(3, 'BINANCE', 'ETH', '2');
    loan(4, 'BINANCE', 'USDT', '150');
    expect(read()).toEqual(['BINANCE USDT 150', 'OKX USDT 50', 'BINANCE ETH 2']);
    expect(read('USDT')).toEqual(['BINANCE USDT 150', 'OKX USDT 50']);
    // A repaid loan is gone, also one the simulated venue reports with the interest it charged.
    loan(5, 'OKX', 'USDT', '0', '0.01');
    loan(6, 'BINANCE', 'USDT', '0');
    expect(read()).toEqual(['BINANCE ETH 2']);
  });
});

describe('kernel state on bar-only data', () => {
  it('takes the reference price from the latest closed bar when no quote, trade or mark is known', () => {
    const { kernel } = aKernelRig([]);
    kernel.push(aFeedBar(0, [100, 102, 99, 101, 10]));
    kernel.push({ ...aFeedBar(60_000, [101, 104, 100, 103, 5]), closed: false });
    expect(kernel.state.referencePrice(BTC)).toBe(101);
    kernel.push(aTrade(130_000, 99.5));
    expect(kernel.state.referencePrice(BTC)).toBe(99.5);
  });

  it('marks the portfolio at the bar close, so a strategy sees unrealized PnL in ctx.equity()', () => {
    const seen: string[] = [];
    const watcher = defineStrategy({
      name: 'equity-watcher',
      params: z.object({}),
      onStart: (ctx) => ctx.watchBars(BTC, '1m'),
      onBar: (ctx, bar) => {
        seen.push(`${bar.close} ${ctx.referencePrice(BTC)} ${ctx.equity().toFixed()}`);
      },
    });
    const instruments = [anInstrument(BTC)];
    const portfolio = new Portfolio({
      instrument: (sym) => instruments.find((i) => i.sym === sym),
      initialCash: { USDT: D('10000') },
    });
    const { kernel } = aKernelRig([{ id: 'w', strategy: watcher, params: {} }], { instruments, portfolio });
    kernel.push(aFeedBar(0, [100, 100, 100, 100, 1]));
    const fill = anExecution({ side: 'BUY', quantity: '2', price: '100', timestamp: 60_000 });
    kernel.push({ kind: 'execution', ts: 60_000, recvTs: 60_000, execution: fill });
    kernel.push(aFeedBar(60_000, [100, 111, 100, 110, 1]));
    kernel.stop();
    expect(seen).toEqual(['100 100 10000', '110 110 10020']);
    expect(kernel.state.equity().toFixed()).toBe('10020');
  });
});

describe('kernel state: open-order questions the risk gate asks on every intent', () => {
  const refs = ['r0', 'r1', 'r2', 'r3', 'r4', 'r5'];
  const byRef = (a: { clientOrderId: string }, b: { clientOrderId: string }): number =>
    a.clientOrderId.localeCompare(b.clientOrderId);
  const states: readonly OrderState[] = [...VENUE_ORDER_STATES, ...IN_FLIGHT_ORDER_STATES];
  const step = fc.oneof(
    fc.record({
      kind: fc.constant('own' as const),
      ref: fc.constantFrom(...refs),
      owner: fc.constantFrom('s1', 's2'),
    }),
    fc.record({
      kind: fc.constantFrom('venue' as const, 'local' as const),
      ref: fc.constantFrom(...refs),
      // Mostly one sym per ref, sometimes an update naming the other one.
      sym: fc.constantFrom(BTC, BTC, BTC, ETH),
      state: fc.constantFrom(...states),
      updateAt: fc.integer({ min: 0, max: 20 }),
    }),
  );

  it('answers counts, per-sym orders and owners as a walk over every open order would, whatever the updates', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const { kernel } = aKernelRig([]);
        const state = kernel.state;
        for (const s of steps) {
          if (s.kind === 'own') {
            state.orders.own(s.ref, s.owner);
            continue;
          }
          const order = anOrder({
            clientOrderId: s.ref,
            orderId: s.kind === 'venue' ? `o-${s.ref}` : '',
            sym: s.ref === 'r1' || s.ref === 'r3' ? (s.sym === BTC ? ETH : BTC) : s.sym,
            orderState: s.state,
            updateAt: s.updateAt,
          });
          if (s.kind === 'venue') state.orders.applyVenue(order);
          else state.orders.applyLocal(order);
        }
        const walk = state.openOrders();
        for (const strategyId of [undefined, 's1', 's2', 'nobody']) {
          const mine = walk.filter(
            (o) => strategyId === undefined || state.ownerOf(o.clientOrderId) === strategyId,
          );
          expect(state.countOpenOrders(strategyId === undefined ? {} : { strategyId })).toBe(mine.length);
          expect(state.openOrders(strategyId)).toEqual(mine);
          for (const sym of [BTC, ETH, 'OKX_SPOT_SOL_USDT']) {
            const onSym = mine.filter((o) => o.sym === sym);
            expect(state.countOpenOrders({ sym, ...(strategyId === undefined ? {} : { strategyId }) })).toBe(
              onSym.length,
            );
            // Per sym, an order moved from another sym is listed last: compare as sets.
            expect([...state.openOrdersOn(sym, strategyId)].sort(byRef)).toEqual([...onSym].sort(byRef));
          }
        }
        for (const ref of refs) expect(state.ownerOf(ref)).toBe(state.orders.ownerOf(ref));
      }),
    );
  });
});

describe('kernel state: equity the venue reports, marked to market between its reports', () => {
  it('adds the change of unrealized PnL since the report, so an open long gains as the price rises', () => {
    const seen: string[] = [];
    const watcher = defineStrategy({
      name: 'equity-watcher',
      params: z.object({}),
      onTrade: (ctx, trade) => {
        seen.push(`${trade.price} ${ctx.equity().toFixed()}`);
      },
    });
    const { kernel } = aKernelRig([{ id: 'w', strategy: watcher, params: {} }]);
    // Long 2 @ 100, the venue's mark 100: equity 10 000 includes 0 unrealized PnL.
    kernel.push(aPositionUpdate(2, '2'));
    kernel.push(anAccountUpdate(2, '10000'));
    expect(kernel.state.equity().toFixed()).toBe('10000');
    // 2 x (110 - 100) = +20, then 2 x (95 - 100) = -10; the venue sent nothing new.
    kernel.push(aTrade(3, 110));
    kernel.push(aTrade(4, 95));
    expect(seen).toEqual(['110 10020', '95 9990']);
    expect(kernel.state.equity().toFixed()).toBe('9990');
  });

  it('estimates that equity on numbers, the exact equity always within the error bound it gives', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -5_000_000, max: 5_000_000 }),
        fc.integer({ min: 1, max: 9_999_999 }),
        fc.integer({ min: 1, max: 9_999_999 }),
        fc.integer({ min: 1, max: 9_999_999 }),
        fc.constantFrom('1', '0.01', '100'),
        fc.integer({ min: 1, max: 10 ** 12 }),
        fc.boolean(),
        (qtyMilli, avgTenths, markTenths, tradeTenths, contractSize, equityCents, short) => {
          const { kernel } = aKernelRig([], {
            instruments: [anInstrument(BTC, { contractSize: D(contractSize) })],
          });
          const qty = D(qtyMilli).div(1000);
          const mark = D(markTenths).div(10);
          const avg = D(avgTenths).div(10);
          kernel.push(
            aPositionUpdate(1, qty.toString(), {
              avgPrice: avg,
              markPrice: mark,
              // as the venue reports it: a SHORT leg's qty signed negative
              unrealizedPNL: (short ? qty.abs().neg() : qty).mul(contractSize).mul(mark.sub(avg)),
              positionSide: short ? 'SHORT' : 'NONE',
            }),
          );
          kernel.push(anAccountUpdate(1, D(equityCents).div(100).toString()));
          kernel.push(aTrade(2, tradeTenths / 10));
          const estimate = kernel.state.equityEstimate();
          expect(estimate).toBeDefined();
          const { value, error } = estimate ?? { value: Number.NaN, error: 0 };
          const exact = kernel.state.equity();
          expect(exact.sub(value).abs().lte(error)).toBe(true);
          // Tight enough to decide: a trillionth of the sizes summed, far below any lot (the
          // equity, the PnL the report included, and the leg re-marked: its reported PnL at the
          // mark plus qty x (trade - mark)).
          const sizes = D(equityCents)
            .div(100)
            .add(
              qty
                .mul(contractSize)
                .abs()
                .mul(
                  mark
                    .add(avg)
                    .add(mark)
                    .add(avg)
                    .add(tradeTenths / 10)
                    .add(mark),
                ),
            );
          expect(error).toBeLessThanOrEqual(sizes.toNumber() * 1e-12);
        },
      ),
    );
  });

  it('starts from the unrealized PnL the venue reported at its own mark (a fill inside a bar)', () => {
    const { kernel } = aKernelRig([]);
    // Filled inside a bar: the venue marked long 2 @ 100 at 105 (uPnL 10) and reported 10 010.
    kernel.push(
      aPositionUpdate(1, '2', { markPrice: D('105'), unrealizedPNL: D('10'), positionValue: D('210') }),
    );
    kernel.push(anAccountUpdate(1, '10010'));
    // The bar closes at 103: 10 010 - 10 + 2 x (103 - 100) = 10 006.
    kernel.push(aFeedBar(0, [104, 106, 102, 103, 5]));
    expect(kernel.state.equity().toFixed()).toBe('10006');
  });

  it('values positions at the venue price rule (mark, else last trade or bar close, else quote mid)', () => {
    const { kernel } = aKernelRig([]);
    kernel.push(aPositionUpdate(1, '2'));
    kernel.push(anAccountUpdate(1, '10000'));
    kernel.push(aQuote(2, 119, 121)); // no last price yet: mid 120 -> 2 x 20 = +40
    expect(kernel.state.equity().toFixed()).toBe('10040');
    kernel.push(aTrade(3, 110)); // the last trade outranks the mid: +20
    kernel.push(aQuote(4, 129, 131));
    expect(kernel.state.equity().toFixed()).toBe('10020');
    kernel.push({ kind: 'markPrice', ts: 5, recvTs: 5, sym: BTC, markPrice: 101, indexPrice: 101 });
    expect(kernel.state.equity().toFixed()).toBe('10002'); // the mark outranks both: +2
  });

  it('re-bases on an account report that came without positions (funding), at the price then', () => {
    const { kernel } = aKernelRig([]);
    kernel.push(aPositionUpdate(1, '2'));
    kernel.push(anAccountUpdate(1, '10000'));
    kernel.push(aTrade(2, 110));
    // Funding of -5 at 110: the venue reports 10 000 + 20 - 5 = 10 015 and no position.
    kernel.push(anAccountUpdate(3, '10015'));
    expect(kernel.state.equity().toFixed()).toBe('10015');
    // 10 015 + 2 x (120 - 110) = 10 035
    kernel.push(aTrade(4, 120));
    expect(kernel.state.equity().toFixed()).toBe('10035');
  });

  it('marks short legs and contract sizes: short 3 SHORT-leg contracts of 0.01 gain as the price falls', () => {
    const instruments = [{ ...anInstrument(BTC), contractSize: D('0.01') }];
    const { kernel } = aKernelRig([], { instruments });
    // A SHORT leg reported with a positive size (two-way mode): -3 contracts of 0.01 @ 100.
    kernel.push(aPositionUpdate(1, '3', { positionSide: 'SHORT' }));
    kernel.push(anAccountUpdate(1, '1000'));
    // -3 x 0.01 x (90 - 100) = +0.3
    kernel.push(aTrade(2, 90));
    expect(kernel.state.equity().toFixed()).toBe('1000.3');
    kernel.stop();
  });
});
