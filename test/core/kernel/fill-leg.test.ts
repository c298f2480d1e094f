import { describe, expect, it } from 'vitest';
import { foldUserEvent } from '../../../core/kernel/fold-user-event.ts';
import { KernelState } from '../../../core/kernel/kernel-state.ts';
import { D, type PositionSide, type UserEvent } from '../../../core/model/index.ts';
import { Portfolio } from '../../../core/portfolio/index.ts';
import { decodeUserDataBatch } from '../../../core/venue/mapping/user-data-decoder.ts';
import { executionFromWire } from '../../../core/venue/mapping/user-data-mapping.ts';
import { anInstrument, instrumentLookup } from '../../kit/instrument-builders.ts';
import { anOrder } from '../../kit/order-builders.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';

/** An execution as the venue's Trades channel and executions endpoints send it: no positionSide. */
const tradeWire = (id: string, side: 'BUY' | 'SELL', price: string, ts: number) => ({
  transactionId: id,
  portfolioId: 'P',
  orderId: `o-${id}`,
  clientOrderId: `c-${id}`,
  exchangeType: 'BINANCE',
  businessType: 'PERP',
  sym: BTC,
  side,
  quantity: '1',
  price,
  tradingFee: '0',
  tradingFeeCoin: 'USDT',
  fee: '0',
  feeCoin: 'USDT',
  rebate: '0',
  rpnl: '0',
  execType: 'TAKER',
  createAt: ts,
});

const orderOf = (id: string, side: 'BUY' | 'SELL', positionSide: PositionSide): UserEvent => ({
  kind: 'order',
  ts: 1,
  recvTs: 1,
  order: anOrder({ orderId: `o-${id}`, clientOrderId: `c-${id}`, sym: BTC, side, positionSide }),
});

const longReport: UserEvent = {
  kind: 'position',
  ts: 5,
  recvTs: 5,
  position: {
    positionId: `${BTC}|LONG`,
    portfolioId: 'P',
    sym: BTC,
    positionSide: 'LONG',
    positionQty: D(1),
    avgPrice: D(100),
    markPrice: D(100),
    positionValue: D(100),
    positionMargin: D(10),
    positionMM: D(0),
    unrealizedPNL: D(0),
    leverage: D(10),
    liqPrice: D(0),
    adlRank: 0,
    createAt: 1,
    updateAt: 5,
  },
};

const tradesFrame = (...data: unknown[]) =>
  decodeUserDataBatch({ channel: 'Trades', ts: 2, data } as never, 3).events;

describe('a fill the venue sends without positionSide (BOTH mode)', () => {
  it('is booked on its LONG or SHORT order leg, so a LONG buy @100 and a SHORT sell @110 realize nothing', () => {
    const spec = anInstrument(BTC);
    const portfolio = new Portfolio({ instrument: instrumentLookup(spec), initialCash: { USDT: D(1000) } });
    const state = new KernelState({ now: () => 0 }, [spec], portfolio);
    foldUserEvent(state, orderOf('t1', 'BUY', 'LONG'));
    foldUserEvent(state, orderOf('t2', 'SELL', 'SHORT'));
    for (const e of tradesFrame(tradeWire('t1', 'BUY', '100', 1), tradeWire('t2', 'SELL', '110', 2)))
      foldUserEvent(state, e);
    expect(portfolio.realizedPnl().toString()).toBe('0');
    expect(state.positionQty(BTC, 'LONG').toString()).toBe('1');
    expect(state.positionQty(BTC, 'SHORT').toString()).toBe('-1');
    expect(state.netQty(BTC).toString()).toBe('0');
  });

  it('counts a LONG fill caught up over REST once after the venue reports the LONG leg', () => {
    const state = new KernelState({ now: () => 0 }, [anInstrument(BTC)]);
    foldUserEvent(state, orderOf('t1', 'BUY', 'LONG'));
    const execution = executionFromWire(tradeWire('t1', 'BUY', '100', 1) as never);
    foldUserEvent(state, { kind: 'execution', ts: 1, recvTs: 2, execution });
    expect(state.netQty(BTC).toString()).toBe('1');
    foldUserEvent(state, longReport);
    expect(state.netQty(BTC).toString()).toBe('1');
  });

  it('finds a placed order by its reference before the venue numbered it', () => {
    const state = new KernelState({ now: () => 0 }, [anInstrument(BTC)]);
    state.orders.applyLocal(
      anOrder({ orderId: '', clientOrderId: 'c-t1', positionSide: 'LONG', orderState: 'PENDING_NEW' }),
    );
    for (const e of tradesFrame(tradeWire('t1', 'BUY', '100', 1))) foldUserEvent(state, e);
    expect(state.positionQty(BTC, 'LONG').toString()).toBe('1');
    expect(state.positionQty(BTC, 'NONE').toString()).toBe('0');
  });
});

describe('a fill in NET mode', () => {
  it('stays on the NONE leg, its order known or not', () => {
    const state = new KernelState({ now: () => 0 }, [anInstrument(BTC)]);
    foldUserEvent(state, orderOf('t1', 'BUY', 'NONE'));
    for (const e of tradesFrame(tradeWire('t1', 'BUY', '100', 1), tradeWire('t2', 'BUY', '100', 2)))
      foldUserEvent(state, e);
    expect(state.positionQty(BTC, 'NONE').toString()).toBe('2');
  });
});
