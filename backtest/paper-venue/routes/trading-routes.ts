import type { Dec, Order, Position } from '../../../core/model/index.ts';
import { BUSINESS_TYPES, D, EXCHANGE_TYPES } from '../../../core/model/index.ts';
import type { EndpointName } from '../../../core/venue/index.ts';
import type { CashFlow } from '../../sim/index.ts';
import { queryOrder } from '../order-commands.ts';
import { paperOrderToWire } from '../order-wire.ts';
import { ARCHIVE_WINDOW, NINETY_DAYS, pageOf, RECENT_WINDOW, windowed } from '../paging.ts';
import { optionalBoolean, optionalChoice, optionalText } from '../request-fields.ts';
import { statementEntries } from '../statement-entries.ts';
import { decimalsAsText, executionToWire, positionToWire } from '../wire-views.ts';
import type { RouteContext, RouteHandler } from './route-context.ts';

const LIVE = new Set(['NEW', 'OPEN', 'PARTIALLY_FILLED']);

function ordersOf(context: RouteContext): Order[] {
  const sym = optionalText(context.params, 'sym', context.where);
  return [...context.book.orders.values()].filter((o) => sym === undefined || o.sym === sym);
}

function orderHistory(context: RouteContext, archive: boolean): unknown {
  const executedOnly = optionalBoolean(context.params, 'filterExecuted', context.where) ?? false;
  const orders = ordersOf(context).filter((o) => !executedOnly || o.executedQty.gt(0));
  const window = archive ? ARCHIVE_WINDOW : RECENT_WINDOW;
  const inWindow = windowed(orders, (o) => o.updateAt, context.params, window, context.now(), context.where);
  return pageOf(
    inWindow.map((o) => paperOrderToWire(context.book, o)),
    context.params,
    context.where,
  );
}

function executions(context: RouteContext, archive: boolean) {
  const { params, where } = context;
  const sym = optionalText(params, 'sym', where);
  const orderId = optionalText(params, 'orderId', where);
  // Values outside the spec's are refused (400001), as algo cancelAll's filters are, not read as
  // matching nothing; a US equity has neither, so either filter leaves its executions out.
  const exchange = optionalChoice(params, 'exchange', EXCHANGE_TYPES, where);
  const businessType = optionalChoice(params, 'businessType', BUSINESS_TYPES, where);
  const matching = context.book.executions.filter((e) => {
    if (sym !== undefined && e.sym !== sym) return false;
    if (orderId !== undefined && e.orderId !== orderId) return false;
    const id = context.book.instruments.get(e.sym)?.id;
    const crypto = id?.kind === 'crypto' ? id : undefined;
    if (exchange !== undefined && crypto?.exchangeType !== exchange) return false;
    return businessType === undefined || crypto?.businessType === businessType;
  });
  const window = archive ? ARCHIVE_WINDOW : RECENT_WINDOW;
  return windowed(matching, (e) => e.timestamp, params, window, context.now(), where).map(executionToWire);
}

async function positions(context: RouteContext): Promise<unknown> {
  const sym = optionalText(context.params, 'sym', context.where);
  // Keel's choice of parameter name: the spec says zero-size positions can be filtered, not how.
  const ignoreZero = optionalBoolean(context.params, 'ignoreZero', context.where) ?? false;
  const byKey = new Map<string, Position>(context.book.positions);
  const snapshot = await context.book.sim.snapshot();
  for (const live of snapshot.positions) byKey.set(`${live.sym}|${live.positionSide}`, live);
  return [...byKey.values()]
    .filter((p) => (sym === undefined || p.sym === sym) && (!ignoreZero || !p.positionQty.isZero()))
    .map(positionToWire);
}

/**
 * Each statement flow with its coin's borrowed amount just before and just after it, replayed
 * from the start of the statement: a borrow raises it by its amount, a repay (negative amount)
 * lowers it; funding, interest and liquidation fees move the balance, not the loan (before =
 * after). The loan principal changes only through borrows and repays in the sim.
 */
function withBorrowAround<F extends CashFlow>(
  flows: readonly F[],
): { readonly flow: F; readonly beforeBorrow: Dec; readonly afterBorrow: Dec }[] {
  const borrowed = new Map<string, Dec>();
  return flows.map((flow) => {
    const beforeBorrow = borrowed.get(flow.coin) ?? D(0);
    const afterBorrow =
      flow.type === 'BORROW' || flow.type === 'REPAY' ? beforeBorrow.plus(flow.amount) : beforeBorrow;
    borrowed.set(flow.coin, afterBorrow);
    return { flow, beforeBorrow, afterBorrow };
  });
}

/** REST routes of orders, executions, positions and the statement (position history and statement: last 90 days, Keel's choice). */
export const TRADING_ROUTES: Partial<Record<EndpointName, RouteHandler>> = {
  placeOrder: (c) => c.execute('placeOrder'),
  replaceOrder: (c) => c.execute('replaceOrder'),
  cancelOrder: (c) => c.execute('cancelOrder'),
  cancelAllOrders: (c) => c.execute('cancelOrders'),
  getOrder: (c) => paperOrderToWire(c.book, queryOrder(c.book, c.params, c.where)),
  getOpenOrders: (c) =>
    ordersOf(c)
      .filter((o) => LIVE.has(o.orderState))
      .map((o) => paperOrderToWire(c.book, o)),
  getOrderHistory: (c) => orderHistory(c, false),
  getArchivedOrderHistory: (c) => orderHistory(c, true),
  getExecutions: (c) => executions(c, false),
  getExecutionsPage: (c) => pageOf(executions(c, false), c.params, c.where),
  getArchivedExecutionsPage: (c) => pageOf(executions(c, true), c.params, c.where),
  getPositions: positions,
  closePosition: (c) => c.execute('closePosition'),
  closePositions: (c) => c.execute('closePositions'),
  getPositionHistory: (c) =>
    pageOf(
      windowed(
        c.book.positionHistory,
        (p) => Number(p.updateAt ?? 0),
        c.params,
        NINETY_DAYS,
        c.now(),
        c.where,
      ),
      c.params,
      c.where,
    ),
  getStatement: (c) => {
    const type = optionalText(c.params, 'type', c.where);
    const coin = optionalText(c.params, 'coin', c.where);
    const flows = withBorrowAround(statementEntries(c.book.sim.statement())).filter(
      ({ flow: f }) => (type === undefined || f.type === type) && (coin === undefined || f.coin === coin),
    );
    const rows = windowed(flows, (r) => r.flow.ts, c.params, NINETY_DAYS, c.now(), c.where).map(
      ({ flow: f, beforeBorrow, afterBorrow }) =>
        decimalsAsText({
          id: f.id,
          type: f.type,
          coin: f.coin,
          ...(f.sym === undefined ? {} : { sym: f.sym }),
          amount: f.amount,
          deltaAmount: f.amount,
          beforeBorrow,
          afterBorrow,
          createAt: f.ts,
        }),
    );
    return pageOf(rows, c.params, c.where);
  },
};
