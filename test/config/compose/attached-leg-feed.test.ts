import { describe, expect, it } from 'vitest';
import type { OrderRecord } from '../../../backtest/report/index.ts';
import { AttachedLegFeed } from '../../../config/compose/attached-leg-feed.ts';
import { type AlgoOrder, D, type UserEvent } from '../../../core/model/index.ts';
import { anAlgoOrder } from '../../kit/algo-order-builders.ts';
import { anOrderUpdate } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';

/** A filled BUY entry carrying tp and sl, as the session recorded it. */
const parent = (orderId: string): OrderRecord =>
  ({
    ...anOrder({
      orderId,
      clientOrderId: `brk-${orderId}`,
      sym: SYM,
      orderState: 'FILLED',
      executedQty: D(1),
      tp: { triggerPrice: D(110), triggerType: 'LastPrice', price: D(0) },
      sl: { triggerPrice: D(90), triggerType: 'LastPrice', price: D(0) },
      createAt: 1_000,
      updateAt: 1_000,
    }),
    strategyId: 'brk',
  }) as OrderRecord;

const leg = (id: string, parentId: string, overrides: Partial<AlgoOrder> = {}): AlgoOrder =>
  anAlgoOrder({
    algoOrderId: id,
    clientAlgoOrderId: `brk-${parentId}-${id}`,
    algoOrderType: 'TP_SL',
    sym: SYM,
    attachedOrderId: parentId,
    createAt: 1_000,
    updateAt: 1_000,
    ...overrides,
  });

/** A feed recording what it gives the kernel and which parents it asks the venue about again. */
function feedRig() {
  const reread: string[] = [];
  const feed = new AttachedLegFeed((p) =>
    reread.push(p.legIds === undefined ? p.orderId : `${p.orderId} ${[...p.legIds]} from ${p.createAt}`),
  );
  const kernel: string[] = [];
  feed.events.subscribe((event: UserEvent) => {
    if (event.kind === 'algoOrder')
      kernel.push(`${event.algoOrder.algoOrderId} ${event.algoOrder.state} ${event.algoOrder.updateAt}`);
  });
  return { feed, reread, kernel };
}

describe('the take-profit / stop-loss legs as the kernel takes them', () => {
  it('passes each leg read from the venue to the kernel as the venue reported it', () => {
    const { feed, kernel } = feedRig();
    feed.attachedLeg(leg('A-1', 'O-1'), parent('O-1'));
    feed.attachedLeg(leg('A-2', 'O-1', { state: 'CANCELLED', updateAt: 3_000 }), parent('O-1'));
    expect(kernel).toEqual(['A-1 NEW 1000', 'A-2 CANCELLED 3000']);
  });

  it('makes a leg TRIGGERED when the order it sent arrives, and asks the venue again for its siblings', () => {
    const { feed, reread, kernel } = feedRig();
    feed.attachedLeg(leg('A-1', 'O-1'), parent('O-1'));
    feed.attachedLeg(leg('A-2', 'O-1'), parent('O-1'));
    const sent = anOrder({
      orderId: 'O-2',
      sym: SYM,
      algoOrderId: 'A-2',
      orderState: 'NEW',
      createAt: 5_000,
    });
    feed.observe(anOrderUpdate(sent));
    expect(kernel.slice(2)).toEqual(['A-2 TRIGGERED 5000']);
    // Its sibling, still open, is asked for by its id.
    expect(reread).toEqual(['O-1 A-1 from 1000']);
    // The same order pushed again fires nothing more: the leg is no longer open.
    feed.observe(anOrderUpdate({ ...sent, orderState: 'OPEN', updateAt: 5_001 }));
    expect([kernel.length, reread]).toEqual([3, ['O-1 A-1 from 1000']]);
  });

  it('asks the venue again for the open legs of a sym once an order on it ended with fills (their position may be flat)', () => {
    const { feed, reread } = feedRig();
    feed.attachedLeg(leg('A-1', 'O-1'), parent('O-1'));
    feed.attachedLeg(leg('A-2', 'O-1'), parent('O-1'));
    feed.attachedLeg(leg('B-1', 'O-5', { sym: 'BINANCE_PERP_ETH_USDT' }), parent('O-5'));
    feed.observe(anOrderUpdate(anOrder({ orderId: 'O-3', sym: SYM, orderState: 'OPEN' })));
    feed.observe(
      anOrderUpdate(anOrder({ orderId: 'O-4', sym: SYM, orderState: 'CANCELLED', executedQty: D(0) })),
    );
    expect(reread).toEqual([]);
    feed.observe(
      anOrderUpdate(anOrder({ orderId: 'O-3', sym: SYM, orderState: 'FILLED', executedQty: D(1) })),
    );
    expect(reread).toEqual(['O-1 A-1,A-2 from 1000']);
  });

  it('forgets a leg the venue ended (a cancel the strategy sent), so an order naming it later changes nothing', () => {
    const { feed, reread, kernel } = feedRig();
    feed.attachedLeg(leg('A-1', 'O-1'), parent('O-1'));
    const cancelled: UserEvent = {
      kind: 'algoOrder',
      ts: 2_000,
      recvTs: 2_000,
      algoOrder: leg('A-1', 'O-1', { state: 'CANCELLED', updateAt: 2_000 }),
    };
    feed.observe(cancelled);
    feed.observe(
      anOrderUpdate(
        anOrder({ orderId: 'O-2', sym: SYM, algoOrderId: 'A-1', orderState: 'FILLED', executedQty: D(1) }),
      ),
    );
    expect([kernel, reread]).toEqual([['A-1 NEW 1000'], []]);
  });

  it('keeps the latest trigger of a leg the strategy amended for the TRIGGERED it reports', () => {
    const { feed, kernel } = feedRig();
    const triggers: string[] = [];
    feed.events.subscribe((event) => {
      if (event.kind === 'algoOrder') triggers.push(event.algoOrder.triggerPrice.toFixed());
    });
    feed.attachedLeg(leg('A-1', 'O-1', { triggerPrice: D(90) }), parent('O-1'));
    const amended = leg('A-1', 'O-1', { triggerPrice: D(95), updateAt: 2_000 });
    feed.observe({ kind: 'algoOrder', ts: 2_000, recvTs: 2_000, algoOrder: amended });
    feed.observe(
      anOrderUpdate(
        anOrder({ orderId: 'O-2', sym: SYM, algoOrderId: 'A-1', orderState: 'NEW', createAt: 3_000 }),
      ),
    );
    expect(kernel).toEqual(['A-1 NEW 1000', 'A-1 TRIGGERED 3000']);
    expect(triggers).toEqual(['90', '95']);
  });

  it('asks the venue again for every open leg once the private stream was reconciled after a login', () => {
    const { feed, reread } = feedRig();
    feed.reconciled();
    expect(reread).toEqual([]);
    feed.attachedLeg(leg('A-1', 'O-1'), parent('O-1'));
    feed.attachedLeg(leg('A-2', 'O-1'), parent('O-1'));
    feed.attachedLeg(leg('B-1', 'O-5', { sym: 'BINANCE_PERP_ETH_USDT' }), parent('O-5'));
    feed.attachedLeg(leg('C-1', 'O-6', { state: 'TRIGGERED' }), parent('O-6'));
    feed.reconciled();
    expect(reread).toEqual(['O-1 A-1,A-2 from 1000', 'O-5 B-1 from 1000']);
  });

  it('follows the legs open at start-up: asks again for the siblings of one that fired, and for all once their position may be flat', () => {
    const { feed, reread, kernel } = feedRig();
    const reported = (algoOrder: AlgoOrder): UserEvent => ({
      kind: 'algoOrder',
      ts: algoOrder.updateAt,
      recvTs: algoOrder.updateAt,
      algoOrder,
    });
    // Reconciliation at start-up gives the kernel the open legs of two parents, and an algo order of its own.
    feed.observe(reported(leg('A-1', 'O-1', { createAt: 1_200 })));
    feed.observe(reported(leg('A-2', 'O-1', { createAt: 1_100 })));
    feed.observe(reported(leg('B-1', 'O-5', { createAt: 1_300 })));
    feed.observe(reported(anAlgoOrder({ algoOrderId: 'M-1', sym: SYM })));
    // An order on the sym ended with fills: the legs of both parents are asked for, from their creation.
    feed.observe(
      anOrderUpdate(anOrder({ orderId: 'O-3', sym: SYM, orderState: 'FILLED', executedQty: D(1) })),
    );
    expect(reread).toEqual(['O-1 A-1,A-2 from 1100', 'O-5 B-1 from 1300']);
    // The execution client ended A-2 (the order it sent arrived): its sibling is asked for.
    feed.observe(reported(leg('A-2', 'O-1', { state: 'TRIGGERED', createAt: 1_100, updateAt: 4_000 })));
    expect(reread.slice(2)).toEqual(['O-1 A-1 from 1200']);
    // The venue's answer ends the sibling; the kernel was told of neither by the feed twice.
    feed.attachedLeg(leg('A-1', 'O-1', { state: 'CANCELLED', createAt: 1_200, updateAt: 4_000 }), {
      orderId: 'O-1',
      clientOrderId: '',
      sym: SYM,
      createAt: 1_200,
      legIds: new Set(['A-1']),
    });
    expect(kernel).toEqual(['A-1 CANCELLED 4000']);
    // A reconciliation after a login ends itself the legs the execution client reported: not asked for again.
    feed.reconciled();
    expect(reread).toHaveLength(3);
  });
});
