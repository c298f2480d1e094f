import type { Logger } from 'pino';
import type { AlgoChildGivenUp, FillGivenUp } from '../../core/kernel/index.ts';
import {
  type AccountStatus,
  type Dec,
  type LiquidationEventRecord,
  type LiquidationPositionRecord,
  type Order,
  type UserEvent,
  ZERO,
} from '../../core/model/index.ts';
import type { RunMetrics } from './run-metrics.ts';

/** The code a post-only (GTX) order is refused with when it would take liquidity (the spec's bad parameters). */
const POST_ONLY_REFUSAL_CODE = '400001';

/**
 * The venue's message for a post-only order refused because it would take, as the simulated venue
 * words it (`post-only (GTX) order would take liquidity`): 400001 is any bad parameter, so only
 * this message makes the refusal the routine one.
 */
const WOULD_TAKE = /would take liquidity/i;

/** A liquidation being logged: its first node's equity, the orders and their fees so far, what was logged. */
interface LoggedLiquidation {
  equityBefore: Dec | undefined;
  fees: Dec;
  readonly orders: Set<string>;
  triggered: boolean;
  finished: boolean;
}

/**
 * The venue's code and message of a REJECTED order, from its `reason` (`"<code> <message>"`, as
 * the adapter and the simulated venue write it).
 * @param order - the rejected order
 * @returns the code (`keel` when Keel ended the order itself: not sent, never acknowledged) and the message
 */
export function rejectionCodeOf(order: Order): { readonly code: string; readonly message: string } {
  const reason = order.reason ?? '';
  const coded = order.synthesized === true ? null : /^(-?\d+) (.*)$/s.exec(reason);
  if (coded === null) return { code: 'keel', message: reason };
  return { code: coded[1] as string, message: coded[2] as string };
}

/**
 * What a live or paper session tells its log and metrics of the venue's User Data as it arrives,
 * for an operator watching only those: every order the venue rejected (warn; info for a post-only
 * order refused as it would take, a routine outcome for a quoting strategy) and every order Keel
 * ended as rejected itself (warn, code `keel`: not sent, or never acknowledged) with
 * `keel_orders_rejected_total{code}`; every liquidation of the account at error (when triggered,
 * each liquidation order, and when finished, with the equity before and after and the fees) with
 * `keel_liquidations_total`; every order the kernel gave up waiting for the algo order it names
 * (warn, `keel_algo_children_given_up_total{reason}`) and every fill it gave up waiting for its
 * order's first update (warn, `keel_fills_given_up_total{reason}`); and each change of the account's status (`keel_account_status`),
 * logged once per transition: into MARGIN_CALL at warn, into LIQUIDATION at error, back to NORMAL
 * at info. A liquidation event or order the venue sends again (a replay after a reconnect) is
 * logged once.
 */
export class UserDataAlerts {
  private accountStatus: AccountStatus | undefined;
  private readonly liquidations = new Map<string, LoggedLiquidation>();

  /**
   * @param logger - the session's logger
   * @param metrics - the session's metrics
   */
  constructor(
    private readonly logger: Logger,
    private readonly metrics: RunMetrics,
  ) {}

  /**
   * Takes one User Data event; only the account and the two liquidation channels matter here.
   * @param event - the event as the execution client emitted it
   */
  observe(event: UserEvent): void {
    if (event.kind === 'account') this.status(event.account.accountStatus, event.account);
    else if (event.kind === 'liquidationEvent') this.node(event.record);
    else if (event.kind === 'liquidationPosition') this.liquidationOrder(event.record);
  }

  /**
   * Logs and counts an order that ended REJECTED (once per order: the session's journal tells it).
   * @param order - the order as rejected
   * @param strategyId - the strategy owning it, when known
   */
  rejected(order: Order, strategyId: string | undefined): void {
    const { code, message } = rejectionCodeOf(order);
    this.metrics.ordersRejected.inc({ code });
    const wouldTake =
      order.timeInForce === 'GTX' && code === POST_ONLY_REFUSAL_CODE && WOULD_TAKE.test(message);
    this.logger[wouldTake ? 'info' : 'warn'](
      {
        clientOrderId: order.clientOrderId,
        sym: order.sym,
        side: order.side,
        code,
        message,
        ...(strategyId === undefined ? {} : { strategy: strategyId }),
      },
      wouldTake
        ? 'venue rejected a post-only order (it would have taken liquidity)'
        : code === 'keel'
          ? 'order ended as rejected by Keel, not by the venue (not sent, or never acknowledged)'
          : 'venue rejected an order',
    );
  }

  /**
   * Logs (warn) and counts (`keel_algo_children_given_up_total{reason}`) an order the kernel gave
   * up waiting for the algo order it names: no strategy was told of it, nor of its fills.
   * @param report - the kernel's report (`Kernel.algoChildrenGivenUp`)
   */
  algoChildGivenUp(report: AlgoChildGivenUp): void {
    this.metrics.algoChildrenGivenUp.inc({ reason: report.cause });
    this.logger.warn(
      {
        cause: report.cause,
        clientOrderId: report.clientOrderId,
        orderId: report.orderId,
        sym: report.sym,
        algoOrderId: report.algoOrderId,
        dropped: report.dropped,
      },
      report.reason,
    );
  }

  /**
   * Logs (warn) and counts (`keel_fills_given_up_total{reason}`) a fill the kernel gave up
   * waiting for its order's first update: no strategy was told of it.
   * @param report - the kernel's report (`Kernel.fillsGivenUp`)
   */
  fillGivenUp(report: FillGivenUp): void {
    this.metrics.fillsGivenUp.inc({ reason: report.cause });
    this.logger.warn(
      {
        cause: report.cause,
        transactionId: report.transactionId,
        orderId: report.orderId,
        clientOrderId: report.clientOrderId,
        sym: report.sym,
        side: report.side,
        qty: report.qty,
        price: report.price,
      },
      report.reason,
    );
  }

  private status(status: AccountStatus, fields: { equity: Dec; maintainMargin: Dec; riskRatio: Dec }): void {
    const before = this.accountStatus;
    this.accountStatus = status;
    this.metrics.observeAccountStatus(status);
    if (before === status || (before === undefined && status === 'NORMAL')) return;
    const detail = {
      from: before ?? 'unknown',
      to: status,
      equity: fields.equity.toFixed(),
      maintainMargin: fields.maintainMargin.toFixed(),
      riskRatio: fields.riskRatio.toFixed(),
    };
    const level = status === 'LIQUIDATION' ? 'error' : status === 'MARGIN_CALL' ? 'warn' : 'info';
    this.logger[level](detail, `account status ${detail.from} -> ${status}`);
  }

  private node(record: LiquidationEventRecord): void {
    const open =
      this.liquidations.get(record.liquidationEventId) ??
      this.opened(record.liquidationEventId, record.eventType);
    if (!open.triggered) {
      open.triggered = true;
      open.equityBefore = record.equity;
      this.logger.error(
        {
          liquidationEventId: record.liquidationEventId,
          eventType: record.eventType,
          node: record.nodeType,
          equity: record.equity.toFixed(),
          maintainMargin: record.maintainMargin.toFixed(),
          syms: [...new Set(record.positions.map((p) => p.sym))],
        },
        'the venue is liquidating the account',
      );
    }
    if (record.nodeType !== 'FINISHED' || open.finished) return;
    open.finished = true;
    this.logger.error(
      {
        liquidationEventId: record.liquidationEventId,
        eventType: record.eventType,
        ...(open.equityBefore === undefined ? {} : { equityBefore: open.equityBefore.toFixed() }),
        equityAfter: record.equity.toFixed(),
        liquidationFees: open.fees.toFixed(),
        orders: open.orders.size,
      },
      'account liquidation finished',
    );
  }

  private liquidationOrder(record: LiquidationPositionRecord): void {
    const open =
      this.liquidations.get(record.liquidationEventId) ?? this.opened(record.liquidationEventId, 'UNKNOWN');
    if (open.orders.has(record.orderId)) return;
    open.orders.add(record.orderId);
    open.fees = open.fees.add(record.liquidationFee);
    this.logger.error(
      {
        liquidationEventId: record.liquidationEventId,
        sym: record.sym,
        side: record.side,
        qty: record.quantity.toFixed(),
        price: record.price.toFixed(),
        fee: record.liquidationFee.toFixed(),
      },
      'position liquidated by the venue',
    );
  }

  /** A liquidation first heard of: counted once. */
  private opened(id: string, type: string): LoggedLiquidation {
    const open: LoggedLiquidation = {
      equityBefore: undefined,
      fees: ZERO,
      orders: new Set(),
      triggered: false,
      finished: false,
    };
    this.liquidations.set(id, open);
    this.metrics.liquidations.inc({ type });
    return open;
  }
}
