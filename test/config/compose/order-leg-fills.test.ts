import { pino } from 'pino';
import { Subject } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { OrderLegFills } from '../../../config/compose/order-leg-fills.ts';
import { KernelState } from '../../../core/kernel/kernel-state.ts';
import { D, type Order, type PositionMode, type UserEvent } from '../../../core/model/index.ts';
import { decodeUserDataBatch } from '../../../core/venue/mapping/user-data-decoder.ts';
import { executionFromWire } from '../../../core/venue/mapping/user-data-mapping.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { anOrder } from '../../kit/order-builders.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';

/** An execution as the venue's Trades channel and executions endpoints send it: no positionSide. */
const tradeWire = (id: string, side: 'BUY' | 'SELL') => ({
  transactionId: id,
  portfolioId: 'P',
  orderId: `o-${id}`,
  clientOrderId: `c-${id}`,
  sym: BTC,
  side,
  quantity: '1',
  price: '100',
  fee: '0',
  feeCoin: 'USDT',
  execType: 'TAKER',
  createAt: 1,
});

const pushedFill = (id: string, side: 'BUY' | 'SELL'): UserEvent => {
  const [event] = decodeUserDataBatch(
    { channel: 'Trades', ts: 2, data: [tradeWire(id, side)] } as never,
    3,
  ).events;
  if (event === undefined) throw new Error('the Trades frame did not decode');
  return event;
};

const caughtUpFill = (id: string, side: 'BUY' | 'SELL'): UserEvent => ({
  kind: 'execution',
  ts: 2,
  recvTs: 3,
  execution: executionFromWire(tradeWire(id, side) as never),
});

const orderEvent = (order: Order): UserEvent => ({ kind: 'order', ts: 2, recvTs: 3, order });

function rig(mode: PositionMode, lookupOrder = vi.fn(async (): Promise<Order | undefined> => undefined)) {
  const state = new KernelState({ now: () => 0 }, [anInstrument(BTC)]);
  state.applyAccount(
    {
      portfolioId: 'P',
      equity: D(0),
      availableMargin: D(0),
      maintainMargin: D(0),
      riskRatio: D(0),
      accountStatus: 'NORMAL',
      positionMode: mode,
    },
    0,
  );
  const source = new Subject<UserEvent>();
  const logger = pino({ level: 'silent' });
  const warn = vi.spyOn(logger, 'warn');
  const seen: UserEvent[] = [];
  const legFills = new OrderLegFills(source, { state: () => state, lookupOrder, logger });
  legFills.events.subscribe((e) => seen.push(e));
  const legs = () => seen.flatMap((e) => (e.kind === 'execution' ? [e.execution.positionSide] : []));
  return { state, source, seen, legs, warn, lookupOrder, legFills };
}

describe('fills of the venue on the legs of their orders', () => {
  it('puts a pushed fill of a known SHORT order on the SHORT leg', () => {
    const { state, source, legs } = rig('BOTH');
    state.orders.applyVenue(
      anOrder({ orderId: 'o-t1', clientOrderId: 'c-t1', side: 'SELL', positionSide: 'SHORT' }),
    );
    source.next(pushedFill('t1', 'SELL'));
    expect(legs()).toEqual(['SHORT']);
  });

  it('holds a fill of an order not known yet in BOTH mode until the order update that names it', () => {
    const { source, seen, legs, lookupOrder } = rig(
      'BOTH',
      vi.fn(() => new Promise<never>(() => {})),
    );
    source.next(caughtUpFill('t1', 'BUY'));
    expect(seen).toEqual([]);
    expect(lookupOrder).toHaveBeenCalledWith(BTC, 'c-t1', 'o-t1');
    source.next(orderEvent(anOrder({ orderId: 'o-t1', clientOrderId: 'c-t1', positionSide: 'LONG' })));
    expect(seen.map((e) => e.kind)).toEqual(['order', 'execution']);
    expect(legs()).toEqual(['LONG']);
  });

  it('takes the leg from the venue when it is asked for the order', async () => {
    const answer = anOrder({ orderId: 'o-t1', clientOrderId: 'c-t1', side: 'SELL', positionSide: 'LONG' });
    const { source, legs } = rig(
      'BOTH',
      vi.fn(async () => answer),
    );
    source.next(pushedFill('t1', 'SELL'));
    await vi.waitFor(() => expect(legs()).toEqual(['LONG']));
  });

  it('passes the fill on NONE with a warning when the venue does not know its order', async () => {
    const { source, legs, warn } = rig('BOTH');
    source.next(pushedFill('t1', 'BUY'));
    await vi.waitFor(() => expect(legs()).toEqual(['NONE']));
    expect(warn).toHaveBeenCalledOnce();
  });

  it('passes the fills still held on NONE with a warning when the venue events end', () => {
    const { source, legs, warn } = rig(
      'BOTH',
      vi.fn(() => new Promise<never>(() => {})),
    );
    source.next(pushedFill('t1', 'BUY'));
    source.complete();
    expect(legs()).toEqual(['NONE']);
    expect(warn).toHaveBeenCalledOnce();
  });

  it('keeps a lockstep ack pending while a fill waits for its order, and lets it go once passed on', async () => {
    let answer: (order: Order | undefined) => void = () => undefined;
    const { source, seen, legFills } = rig(
      'BOTH',
      vi.fn(() => new Promise<Order | undefined>((done) => (answer = done))),
    );
    expect(legFills.pending()).toBeUndefined();
    source.next(pushedFill('t1', 'BUY'));
    const pending = legFills.pending();
    expect(pending).toBeDefined();
    let settled = false;
    void pending?.then(() => {
      settled = true;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    answer(anOrder({ orderId: 'o-t1', clientOrderId: 'c-t1', positionSide: 'LONG' }));
    await vi.waitFor(() => expect(settled).toBe(true));
    expect(seen.map((e) => e.kind)).toEqual(['execution']);
    expect(legFills.pending()).toBeUndefined();
  });

  it('passes every fill on at once in NET mode, without asking the venue', () => {
    const { source, legs, lookupOrder } = rig('NET');
    source.next(pushedFill('t1', 'BUY'));
    expect(legs()).toEqual(['NONE']);
    expect(lookupOrder).not.toHaveBeenCalled();
  });
});
