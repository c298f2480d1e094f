import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { RunMetrics } from '../../../config/compose/run-metrics.ts';
import { rejectionCodeOf, UserDataAlerts } from '../../../config/compose/user-data-alerts.ts';
import {
  type AccountStatus,
  D,
  type LiquidationNodeType,
  type UserEvent,
} from '../../../core/model/index.ts';
import { anAccountUpdate } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';

/** Alerts writing to an array of parsed pino records. */
function alertsWithLog(): { alerts: UserDataAlerts; metrics: RunMetrics; log: Record<string, unknown>[] } {
  const log: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) log.push(JSON.parse(line));
      done();
    },
  });
  const metrics = new RunMetrics(() => 0);
  return { alerts: new UserDataAlerts(pino({ level: 'info' }, sink), metrics), metrics, log };
}

const account = (status: AccountStatus): UserEvent => {
  const event = anAccountUpdate(1, '1000');
  return { ...event, account: { ...event.account, accountStatus: status } };
};

const node = (nodeType: LiquidationNodeType, equity: string): UserEvent => ({
  kind: 'liquidationEvent',
  ts: 1,
  recvTs: 1,
  record: {
    liquidationEventId: 'L-1',
    portfolioId: 'p-1',
    eventType: 'FULL_LIQUIDATION',
    nodeType,
    equity: D(equity),
    maintainMargin: D(50),
    positions: [
      {
        sym: BTC,
        positionSide: 'NONE',
        positionQty: D(1),
        avgPrice: D(100),
        markPrice: D(90),
        liqPrice: D(95),
      },
    ],
    timestamp: 1,
  },
});

const liquidationOrder = (orderId: string, fee: string): UserEvent => ({
  kind: 'liquidationPosition',
  ts: 1,
  recvTs: 1,
  byUser: false,
  record: {
    liquidationEventId: 'L-1',
    portfolioId: 'p-1',
    orderId,
    sym: BTC,
    side: 'SELL',
    quantity: D(1),
    price: D(90),
    liquidationFee: D(fee),
    position: {
      sym: BTC,
      positionSide: 'NONE',
      positionQty: D(1),
      avgPrice: D(100),
      markPrice: D(90),
      liqPrice: D(95),
    },
    timestamp: 1,
  },
});

describe('UserDataAlerts', () => {
  it('logs a liquidation at error once, even when the venue replays its events, and counts it', async () => {
    const { alerts, metrics, log } = alertsWithLog();
    const events = [node('TRIGGERED', '40'), liquidationOrder('o-1', '2.5'), node('FINISHED', '7.5')];
    for (const event of [...events, ...events]) alerts.observe(event);
    expect(log.map((r) => [r.level, r.msg])).toEqual([
      [50, 'the venue is liquidating the account'],
      [50, 'position liquidated by the venue'],
      [50, 'account liquidation finished'],
    ]);
    expect(log[1]).toMatchObject({ liquidationEventId: 'L-1', sym: BTC, fee: '2.5', qty: '1', price: '90' });
    expect(log[2]).toMatchObject({
      equityBefore: '40',
      equityAfter: '7.5',
      liquidationFees: '2.5',
      orders: 1,
    });
    expect(await metrics.scrape()).toContain('keel_liquidations_total{type="FULL_LIQUIDATION"} 1\n');
  });

  it('logs each change of the account status once and exports the current one', async () => {
    const { alerts, metrics, log } = alertsWithLog();
    for (const status of ['NORMAL', 'NORMAL', 'MARGIN_CALL', 'MARGIN_CALL', 'NORMAL'] as const)
      alerts.observe(account(status));
    expect(log.map((r) => [r.level, r.msg])).toEqual([
      [40, 'account status NORMAL -> MARGIN_CALL'],
      [30, 'account status MARGIN_CALL -> NORMAL'],
    ]);
    alerts.observe(account('MARGIN_CALL'));
    const text = await metrics.scrape();
    expect(text).toContain('keel_account_status{status="MARGIN_CALL"} 1\n');
    expect(text).toContain('keel_account_status{status="NORMAL"} 0\n');
  });

  it('logs a session starting in MARGIN_CALL', () => {
    const { alerts, log } = alertsWithLog();
    alerts.observe(account('MARGIN_CALL'));
    expect(log.map((r) => [r.level, r.msg])).toEqual([[40, 'account status unknown -> MARGIN_CALL']]);
  });

  it('logs a rejected order with its reference, sym and code, and counts it by code', async () => {
    const { alerts, metrics, log } = alertsWithLog();
    alerts.rejected(
      anOrder({
        clientOrderId: 'c-1',
        sym: BTC,
        orderState: 'REJECTED',
        reason: '401023 insufficient margin',
      }),
      's',
    );
    alerts.rejected(
      anOrder({
        clientOrderId: 'c-2',
        sym: BTC,
        timeInForce: 'GTX',
        orderState: 'REJECTED',
        reason: '400001 bad parameters: post-only (GTX) order would take liquidity',
      }),
      undefined,
    );
    expect(log).toMatchObject([
      {
        level: 40,
        clientOrderId: 'c-1',
        sym: BTC,
        code: '401023',
        message: 'insufficient margin',
        strategy: 's',
      },
      { level: 30, clientOrderId: 'c-2', code: '400001' },
    ]);
    const text = await metrics.scrape();
    expect(text).toContain('keel_orders_rejected_total{code="401023"} 1\n');
    expect(text).toContain('keel_orders_rejected_total{code="400001"} 1\n');
  });

  it("names Keel's own ending of an order code keel", () => {
    expect(rejectionCodeOf(anOrder({ reason: 'not connected' }))).toEqual({
      code: 'keel',
      message: 'not connected',
    });
    expect(rejectionCodeOf(anOrder({ reason: '12 no ack', synthesized: true })).code).toBe('keel');
    expect(rejectionCodeOf(anOrder({ reason: '-1 x y' }))).toEqual({ code: '-1', message: 'x y' });
  });

  it('logs an order given up waiting for its algo order at warn and counts it', async () => {
    const { alerts, metrics, log } = alertsWithLog();
    alerts.algoChildGivenUp({
      cause: 'timeout',
      clientOrderId: '',
      orderId: 'v9',
      sym: BTC,
      algoOrderId: 'A-9',
      heldAt: 3,
      dropped: 2,
      ts: 10_004,
      reason: 'order v9 names algo order A-9, which the venue did not report within 10 s',
    });
    expect(log).toEqual([
      expect.objectContaining({
        level: 40,
        msg: 'order v9 names algo order A-9, which the venue did not report within 10 s',
        orderId: 'v9',
        sym: BTC,
        algoOrderId: 'A-9',
        dropped: 2,
      }),
    ]);
    const text = await metrics.scrape();
    expect(text).toContain('keel_algo_children_given_up_total{reason="timeout"} 1\n');
    expect(text).toContain('keel_algo_children_given_up_total{reason="capacity"} 0\n');
    expect(text).toContain('keel_algo_children_given_up_total{reason="backlog"} 0\n');
  });

  // A fill whose order's first update never came was dropped with neither a log line nor a count.
  it('logs a fill given up waiting for its order at warn, with its ids, and counts it by reason', async () => {
    const { alerts, metrics, log } = alertsWithLog();
    alerts.fillGivenUp({
      cause: 'capacity',
      transactionId: 't-1',
      orderId: 'v5',
      clientOrderId: '',
      sym: BTC,
      side: 'BUY',
      qty: '0.5',
      price: '100',
      heldAt: 3,
      ts: 10,
      reason: 'fill t-1 of order v5 came before its order',
    });
    expect(log).toEqual([
      expect.objectContaining({
        level: 40,
        msg: 'fill t-1 of order v5 came before its order',
        cause: 'capacity',
        transactionId: 't-1',
        orderId: 'v5',
        sym: BTC,
        qty: '0.5',
      }),
    ]);
    const text = await metrics.scrape();
    expect(text).toContain('keel_fills_given_up_total{reason="capacity"} 1\n');
    expect(text).toContain('keel_fills_given_up_total{reason="timeout"} 0\n');
    expect(text).not.toContain('keel_fills_given_up_total{reason="backlog"}');
  });
});
