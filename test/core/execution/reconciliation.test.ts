import { describe, expect, it } from 'vitest';
import {
  LastingLookupFailure,
  planReconciliation,
  reconcile,
  UNREADABLE_ORDER_REASON,
  type VenueSnapshot,
} from '../../../core/execution/index.ts';
import { D, type Position, ZERO } from '../../../core/model/index.ts';
import { anAlgoOrder } from '../../kit/algo-order-builders.ts';
import { anExecution } from '../../kit/execution-builders.ts';
import { anOrder } from '../../kit/order-builders.ts';
import { aRecordingPort } from '../../kit/recording-execution-port.ts';

function aPosition(overrides: Partial<Position> = {}): Position {
  return {
    positionId: 'pos-1',
    portfolioId: 'p-1',
    sym: 'BINANCE_PERP_BTC_USDT',
    positionSide: 'NONE',
    positionQty: D('1'),
    avgPrice: D('100'),
    markPrice: D('100'),
    positionValue: D('100'),
    positionMargin: D('10'),
    positionMM: D('1'),
    unrealizedPNL: ZERO,
    leverage: D('10'),
    liqPrice: D('50'),
    adlRank: 0,
    createAt: 0,
    updateAt: 0,
    ...overrides,
  };
}

const usdt = {
  coin: 'USDT',
  balance: D('500'),
  available: D('500'),
  frozen: ZERO,
  equity: D('500'),
  borrow: ZERO,
  upnl: ZERO,
};

/** Reconciliation's algo order lookup where the test has no algo order to look up. */
const NO_ALGO_LOOKUP = { lookupAlgoOrder: () => Promise.reject(new Error('no algo order to look up')) };

function snapshot(fields: Partial<VenueSnapshot>): VenueSnapshot {
  return { ts: 9000, openOrders: [], openAlgoOrders: [], positions: [], assets: [], ...fields };
}

describe('reconciliation', () => {
  it('adopts venue orders unknown locally and emits only venue orders newer than the local ones', () => {
    const same = anOrder({ clientOrderId: 'same', orderId: 'o-s', updateAt: 10 });
    const stale = anOrder({ clientOrderId: 'moved', orderId: 'o-m', updateAt: 10 });
    const moved = { ...stale, orderState: 'PARTIALLY_FILLED' as const, executedQty: D('0.5'), updateAt: 20 };
    const stranger = anOrder({ clientOrderId: 'web', orderId: 'o-w' });
    const plan = planReconciliation(
      { openOrders: [same, stale], positions: [], assets: [] },
      snapshot({ openOrders: [same, moved, stranger] }),
    );
    expect(plan.events.map((e) => (e.kind === 'order' ? e.order.clientOrderId : e.kind))).toEqual([
      'moved',
      'web',
    ]);
    expect(plan.vanished).toEqual([]);
  });

  it('looks up vanished orders and emits what the venue says, or CANCELLED / REJECTED when it knows nothing', async () => {
    const filled = anOrder({ clientOrderId: 'filled', orderId: 'o-f' });
    const gone = anOrder({ clientOrderId: 'gone', orderId: 'o-g' });
    const neverSent = anOrder({ clientOrderId: 'lost', orderId: '', orderState: 'PENDING_NEW' });
    const port = aRecordingPort();
    port.venueOrders.set('filled', { ...filled, orderState: 'FILLED', executedQty: D('1'), updateAt: 50 });
    const events = await reconcile(
      { openOrders: [filled, gone, neverSent], positions: [], assets: [] },
      snapshot({}),
      port,
    );
    expect(
      events.map((e) => (e.kind === 'order' ? `${e.order.clientOrderId}:${e.order.orderState}` : e.kind)),
    ).toEqual(['filled:FILLED', 'gone:CANCELLED', 'lost:REJECTED']);
    expect(port.lookups).toHaveLength(3);
    expect(port.submitted).toEqual([]);
  });

  it('reports the executions Keel has not seen first, oldest first and once each, before the orders', () => {
    const fill = (transactionId: string, timestamp: number) =>
      anExecution({ transactionId, side: 'BUY', quantity: '1', price: '100', timestamp });
    const partly = anOrder({
      clientOrderId: 'p',
      orderId: 'o-p',
      orderState: 'PARTIALLY_FILLED',
      updateAt: 40,
    });
    const plan = planReconciliation(
      { openOrders: [], positions: [], assets: [], seenExecutionIds: new Set(['T-1']) },
      // Listed newest first, with a duplicate entry.
      snapshot({
        openOrders: [partly],
        executions: [fill('T-4', 40), fill('T-3', 30), fill('T-3', 30), fill('T-2', 20), fill('T-1', 10)],
      }),
    );
    expect(
      plan.events.map((e) =>
        e.kind === 'execution'
          ? e.execution.transactionId
          : `${e.kind}:${e.kind === 'order' ? e.order.orderState : ''}`,
      ),
    ).toEqual(['T-2', 'T-3', 'T-4', 'order:PARTIALLY_FILLED']);
  });

  it('marks the REJECTED / CANCELLED it makes up for an order the venue does not know as synthesized', async () => {
    const gone = anOrder({ clientOrderId: 'gone', orderId: 'o-g' });
    const events = await reconcile(
      { openOrders: [gone], positions: [], assets: [] },
      snapshot({}),
      aRecordingPort(),
    );
    expect(events[0]).toMatchObject({ kind: 'order', order: { orderState: 'CANCELLED', synthesized: true } });
  });

  it('ends an order whose lookup failed for good, as it would one the venue does not know, and applies the rest', async () => {
    const unreadable = anOrder({ clientOrderId: 'unreadable', orderId: 'o-u' });
    const unacked = anOrder({ clientOrderId: 'unacked', orderId: '', orderState: 'PENDING_NEW' });
    const lookups: string[] = [];
    const events = await reconcile(
      { openOrders: [unreadable, unacked], positions: [], assets: [] },
      snapshot({ positions: [aPosition()] }),
      {
        lookupOrder: (_sym, clientOrderId) => {
          lookups.push(clientOrderId);
          return Promise.reject(new LastingLookupFailure(`order ${clientOrderId}: cannot be decoded`));
        },
        ...NO_ALGO_LOOKUP,
      },
    );
    expect(lookups).toEqual(['unreadable', 'unacked']);
    expect(events.map((e) => (e.kind === 'order' ? e.order : e.kind))).toEqual([
      'position',
      expect.objectContaining({
        clientOrderId: 'unreadable',
        orderState: 'CANCELLED',
        synthesized: true,
        reason: `${UNREADABLE_ORDER_REASON}: order unreadable: cannot be decoded`,
        updateAt: 9000,
      }),
      expect.objectContaining({ clientOrderId: 'unacked', orderState: 'REJECTED', synthesized: true }),
    ]);
  });

  it('fails when a lookup fails in a way that may pass (no answer), so the reconciliation is tried again', async () => {
    const open = anOrder({ clientOrderId: 'open', orderId: 'o-o' });
    const reconciliation = reconcile({ openOrders: [open], positions: [], assets: [] }, snapshot({}), {
      lookupOrder: () => Promise.reject(new Error('connection reset')),
      ...NO_ALGO_LOOKUP,
    });
    await expect(reconciliation).rejects.toThrow('connection reset');
  });

  it('tells orders placed without a clientOrderId apart by orderId, and looks a vanished one up by it', async () => {
    const listed = anOrder({ clientOrderId: '', orderId: 'o-hand-1' });
    const vanished = anOrder({ clientOrderId: '', orderId: 'o-hand-2' });
    const lookups: Array<[string, string | undefined]> = [];
    const events = await reconcile(
      { openOrders: [listed, vanished], positions: [], assets: [] },
      snapshot({ openOrders: [listed] }),
      {
        lookupOrder: (_sym, clientOrderId, orderId) => {
          lookups.push([clientOrderId, orderId]);
          return Promise.resolve({ ...vanished, orderState: 'FILLED', executedQty: vanished.orderQty });
        },
        ...NO_ALGO_LOOKUP,
      },
    );
    expect(lookups).toEqual([['', 'o-hand-2']]);
    expect(
      events.map((e) => (e.kind === 'order' ? `${e.order.orderId}:${e.order.orderState}` : e.kind)),
    ).toEqual(['o-hand-2:FILLED']);
  });

  it('replaces positions and assets with the venue’s, flattening local ones the venue does not list', () => {
    const plan = planReconciliation(
      {
        openOrders: [],
        positions: [aPosition({ sym: 'OKX_PERP_ETH_USDT', positionQty: D('-3') })],
        assets: [{ ...usdt, coin: 'BTC' }],
      },
      snapshot({ positions: [aPosition()], assets: [usdt] }),
    );
    const summary = plan.events.map((e) => {
      if (e.kind === 'position') return `position ${e.position.sym} ${e.position.positionQty.toFixed()}`;
      if (e.kind === 'asset') return `asset ${e.asset.coin} ${e.asset.balance.toFixed()}`;
      return e.kind;
    });
    expect(summary).toEqual([
      'position BINANCE_PERP_BTC_USDT 1',
      'position OKX_PERP_ETH_USDT 0',
      'asset USDT 500',
      'asset BTC 0',
    ]);
    expect(plan.events.every((e) => e.ts === 9000)).toBe(true);
  });

  it('replaces loans with the venue’s when it lists them, paying off local ones it does not list', () => {
    const loan = (coin: string, principal: string) => ({
      exchange: 'BINANCE',
      coin,
      principal: D(principal),
      interest: D('0.5'),
      annualRate: D('0.08'),
      updateAt: 1,
    });
    const local = {
      openOrders: [],
      positions: [],
      assets: [],
      loans: [loan('USDT', '100'), loan('ETH', '2')],
    };
    const plan = planReconciliation(local, snapshot({ loans: [loan('USDT', '150')] }));
    const summary = plan.events.map((e) =>
      e.kind === 'loan'
        ? `loan ${e.loan.coin} ${e.loan.principal.toFixed()} ${e.loan.interest.toFixed()}`
        : e.kind,
    );
    expect(summary).toEqual(['loan USDT 150 0.5', 'loan ETH 0 0']);
    expect(plan.events.every((e) => e.ts === 9000)).toBe(true);
    // A snapshot that could not read the loans leaves Keel's as they are.
    expect(planReconciliation(local, snapshot({})).events.filter((e) => e.kind === 'loan')).toEqual([]);
  });

  it('adopts venue algo orders and leaves local ones the venue no longer lists to be looked up', () => {
    const algo = anAlgoOrder({ algoOrderId: 'a-1', clientAlgoOrderId: 'ca-1' });
    const old = anAlgoOrder({ algoOrderId: 'a-0', clientAlgoOrderId: 'old' });
    const plan = planReconciliation(
      { openOrders: [], positions: [], assets: [], openAlgoOrders: [old] },
      snapshot({ openAlgoOrders: [algo] }),
    );
    expect(
      plan.events.map((e) =>
        e.kind === 'algoOrder' ? `${e.algoOrder.clientAlgoOrderId}:${e.algoOrder.state}` : e.kind,
      ),
    ).toEqual(['ca-1:NEW']);
    expect(plan.vanishedAlgoOrders).toEqual([old]);
  });

  it('looks up vanished algo orders and emits what the venue says (one that fired is TRIGGERED), CANCELLED when it knows nothing', async () => {
    const fired = anAlgoOrder({ algoOrderId: 'a-f', clientAlgoOrderId: 'fired' });
    const gone = anAlgoOrder({ algoOrderId: 'a-g', clientAlgoOrderId: 'gone' });
    const port = aRecordingPort();
    port.venueAlgoOrders.set('fired', { ...fired, state: 'TRIGGERED', orderId: 'o-child', updateAt: 50 });
    const events = await reconcile(
      { openOrders: [], positions: [], assets: [], openAlgoOrders: [fired, gone] },
      snapshot({}),
      port,
    );
    expect(events.map((e) => (e.kind === 'algoOrder' ? e.algoOrder : e.kind))).toEqual([
      expect.objectContaining({
        clientAlgoOrderId: 'fired',
        state: 'TRIGGERED',
        orderId: 'o-child',
        updateAt: 50,
      }),
      expect.objectContaining({ clientAlgoOrderId: 'gone', state: 'CANCELLED', updateAt: 9000 }),
    ]);
    expect(port.lookups).toEqual(['algo BINANCE_PERP_BTC_USDT|fired', 'algo BINANCE_PERP_BTC_USDT|gone']);
  });

  it('ends an algo order whose lookup failed for good CANCELLED, and fails on a lookup failure that may pass', async () => {
    const local = { openOrders: [], positions: [], assets: [], openAlgoOrders: [anAlgoOrder()] };
    const unreadable = await reconcile(local, snapshot({}), {
      lookupOrder: () => Promise.resolve(undefined),
      lookupAlgoOrder: () => Promise.reject(new LastingLookupFailure('cannot be decoded')),
    });
    expect(unreadable).toEqual([
      expect.objectContaining({ algoOrder: expect.objectContaining({ state: 'CANCELLED' }) }),
    ]);
    const reset = reconcile(local, snapshot({}), {
      lookupOrder: () => Promise.resolve(undefined),
      lookupAlgoOrder: () => Promise.reject(new Error('connection reset')),
    });
    await expect(reset).rejects.toThrow('connection reset');
  });

  it('keeps an acknowledged order or an algo order the venue does not know open when asked to, never an unacknowledged one', async () => {
    const acked = anOrder({ clientOrderId: 'acked', orderId: 'o-a' });
    const unacked = anOrder({ clientOrderId: 'unacked', orderId: '', orderState: 'PENDING_NEW' });
    const algo = anAlgoOrder({ clientAlgoOrderId: 'algo' });
    const asked: string[] = [];
    const events = await reconcile(
      { openOrders: [acked, unacked], positions: [], assets: [], openAlgoOrders: [algo] },
      snapshot({}),
      aRecordingPort(),
      {
        keepUnknownOpen: (unknown) => {
          asked.push(
            unknown.kind === 'order' ? unknown.order.clientOrderId : unknown.algoOrder.clientAlgoOrderId,
          );
          return true;
        },
      },
    );
    expect(asked).toEqual(['acked', 'algo']);
    expect(
      events.map((e) => (e.kind === 'order' ? `${e.order.clientOrderId}:${e.order.orderState}` : e.kind)),
    ).toEqual(['unacked:REJECTED']);
  });

  it('leaves out what a newer update superseded, and does not look up an order a newer update settled', async () => {
    const placedMeanwhile = anOrder({ clientOrderId: 'new', orderId: 'o-n' });
    const vanished = anOrder({ clientOrderId: 'gone', orderId: 'o-g' });
    const listed = anOrder({ clientOrderId: 'listed', orderId: 'o-l' });
    const port = aRecordingPort();
    const pushedSince = new Set(['new', 'listed', 'USDT']);
    const events = await reconcile(
      { openOrders: [placedMeanwhile, vanished], positions: [], assets: [] },
      snapshot({ openOrders: [listed], positions: [aPosition()], assets: [usdt] }),
      port,
      {
        superseded: (e) =>
          (e.kind === 'order' && pushedSince.has(e.order.clientOrderId)) ||
          (e.kind === 'asset' && pushedSince.has(e.asset.coin)),
      },
    );
    expect(
      events.map((e) => (e.kind === 'order' ? `${e.order.clientOrderId}:${e.order.orderState}` : e.kind)),
    ).toEqual(['position', 'gone:CANCELLED']);
    expect(port.lookups).toEqual(['BINANCE_PERP_BTC_USDT|gone']);
  });

  // Per the public notes the account reply lists no assets; zeroing Keel's balances on every
  // reconciliation (a reconnect's) would undo what the venue's Assets pushes told it.
  it('keeps the local assets when the snapshot lists none (the venue did not say)', () => {
    const { assets: _none, ...withoutAssets } = snapshot({});
    const plan = planReconciliation(
      { openOrders: [], positions: [], assets: [usdt] },
      withoutAssets as VenueSnapshot,
    );
    expect(plan.events.filter((e) => e.kind === 'asset')).toEqual([]);
  });
});
