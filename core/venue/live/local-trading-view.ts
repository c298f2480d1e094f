import type { LocalTradingState } from '../../execution/index.ts';
import {
  type AlgoOrder,
  type Asset,
  isFinalOrderState,
  type Loan,
  type Order,
  type Position,
  positionKey,
  type UserEvent,
} from '../../model/index.ts';
import { ChangesSinceSnapshot } from './changes-since-snapshot.ts';

/** Fewest executions noted before the view first forgets those no catch-up can list any more. */
export const EXECUTION_SWEEP_MIN = 1024;

/**
 * What the live execution client believes the venue holds (open orders and algo orders,
 * positions, assets, outstanding loans) and the executions it has reported, kept from the events it emits: the
 * local view reconciliation compares with the venue's snapshot after every (re)connect. It also
 * knows what the venue updated after a snapshot was begun, so reconciliation leaves those alone.
 */
export class LocalTradingView {
  private readonly changes = new ChangesSinceSnapshot();
  /** Open orders by {@link openOrderKey}. */
  private readonly believedOpen = new Map<string, Order>();
  private readonly positions = new Map<string, Position>();
  private readonly assets = new Map<string, Asset>();
  private readonly openAlgoOrders = new Map<string, AlgoOrder>();
  /** The newest venue time of a position report the venue sent, no later than the venue's time at its receipt. */
  private newestPositionReport: number | undefined;
  /** Outstanding loans by exchange and coin. */
  private readonly loans = new Map<string, Loan>();
  /** Reported executions: transactionId -> venue time, epoch ms. */
  private readonly executions = new Map<string, number>();
  private newestExecution: number | undefined;
  /** How many executions the last sweep left: the next one runs once there are twice as many. */
  private executionsAfterSweep = 0;

  /**
   * @param venueNow - the venue's time, epoch ms, read as each event is folded (when it was
   *   received): a venue time the venue stamped ahead of it counts only as it. The venue's, not
   *   the machine's: on a venue behind the machine's clock (or a paper venue replaying an earlier
   *   day) a cap at the machine's time would let a time stamped ahead through
   * @param oldestExecutionNeeded - the venue time from which a later catch-up can still list an
   *   execution (see ExecutionCatchUp.oldestNeeded), undefined while every one may be: older ones
   *   are forgotten as executions are noted, each time their number has doubled since the last
   *   time (at least {@link EXECUTION_SWEEP_MIN}), so a session that never reconnects still keeps
   *   only the recent ones; by default none is forgotten that way
   */
  constructor(
    private readonly venueNow: () => number,
    private readonly oldestExecutionNeeded: () => number | undefined = () => undefined,
  ) {}

  /**
   * Keeps the local view up to date with one update from the venue the client passes on (a push,
   * an ack, a lookup's answer): newer than any snapshot being taken now.
   * @param event - the User Data event
   */
  observe(event: UserEvent): void {
    this.changes.note(event);
    this.fold(event, false);
  }

  /**
   * Keeps the local view up to date with one of reconciliation's corrective events (as old as its
   * snapshot, so not noted as newer than another snapshot being taken).
   * @param event - the corrective User Data event
   */
  observeCorrection(event: UserEvent): void {
    this.fold(event, true);
  }

  /**
   * Starts noting what the venue updates from now on: call it before asking for a snapshot.
   * @returns the snapshot's mark, for {@link LocalTradingView.updatedSince}
   */
  beginSnapshot(): number {
    return this.changes.begin();
  }

  /** Stops noting updates for a snapshot whose corrections were emitted (or given up). */
  endSnapshot(): void {
    this.changes.end();
  }

  /**
   * @param event - a corrective event of a snapshot begun at `mark`
   * @param mark - what {@link LocalTradingView.beginSnapshot} returned
   * @returns whether the venue updated what the event is about after the snapshot was begun
   */
  updatedSince(event: UserEvent, mark: number): boolean {
    return this.changes.updatedSince(event, mark);
  }

  /**
   * Records an execution as known without it being reported (one that happened before the
   * session, seen when the client primes its view).
   * @param transactionId - the execution's id
   * @param ts - its venue time, epoch ms
   * @param seenAt - the venue's time when it was seen, epoch ms: it counts toward the newest
   *   execution time at most as this, so one stamped in the future (a venue clock off, a time in
   *   microseconds) cannot start later catch-ups after the fills made since
   */
  noteExecution(transactionId: string, ts: number, seenAt: number): void {
    this.executions.set(transactionId, ts);
    const counted = Math.min(ts, seenAt);
    if (this.newestExecution === undefined || counted > this.newestExecution) this.newestExecution = counted;
    if (this.executions.size >= Math.max(EXECUTION_SWEEP_MIN, 2 * this.executionsAfterSweep)) {
      const oldest = this.oldestExecutionNeeded();
      if (oldest !== undefined) this.forgetExecutionsBefore(oldest);
      this.executionsAfterSweep = this.executions.size;
    }
  }

  /**
   * @param transactionId - an execution's id
   * @returns whether it was reported (or noted) already
   */
  hasExecution(transactionId: string): boolean {
    return this.executions.has(transactionId);
  }

  /**
   * @returns the venue time of the newest execution known, each capped at when it was seen (see
   *   {@link LocalTradingView.noteExecution}), epoch ms; undefined before any
   */
  newestExecutionTs(): number | undefined {
    return this.newestExecution;
  }

  /**
   * Forgets executions older than a time, so a long run's memory stays bounded; the caller keeps
   * every execution a later catch-up window can list. Compared by venue time, as the window's
   * start is: one stamped in the future is listed by every window until its time has passed, so it
   * is remembered until then.
   * @param ts - venue time, epoch ms
   */
  forgetExecutionsBefore(ts: number): void {
    for (const [id, at] of this.executions) if (at < ts) this.executions.delete(id);
  }

  /**
   * @param order - an order's references
   * @returns the view's open order of those references; undefined when it holds none open
   */
  openOrder(order: Pick<Order, 'clientOrderId' | 'orderId'>): Order | undefined {
    return this.believedOpen.get(openOrderKey(order));
  }

  /** The view as reconciliation takes it. @returns copies of the open orders, positions, assets, open algo orders, seen execution ids and loans */
  state(): LocalTradingState {
    return {
      openOrders: [...this.believedOpen.values()],
      positions: [...this.positions.values()],
      assets: [...this.assets.values()],
      openAlgoOrders: [...this.openAlgoOrders.values()],
      seenExecutionIds: new Set(this.executions.keys()),
      loans: [...this.loans.values()],
      ...this.venueTime(),
    };
  }

  /**
   * The newest venue time seen on a position report or a fill, each counted no later than the
   * venue's time when it was received (a time stamped ahead, by a venue clock off or in
   * microseconds, cannot move it past the present): `LocalTradingState.venueTime`, absent before any.
   */
  private venueTime(): { readonly venueTime?: number } {
    const times = [this.newestPositionReport, this.newestExecution].filter((t) => t !== undefined);
    return times.length === 0 ? {} : { venueTime: Math.max(...times) };
  }

  /**
   * @param corrective - a reconciliation's correction: its flat positions are stamped by Keel, so
   *   they do not move the newest position report (fills are the venue's own, corrective or not)
   */
  private fold(event: UserEvent, corrective: boolean): void {
    switch (event.kind) {
      case 'order': {
        const order = event.order;
        if (isFinalOrderState(order.orderState)) this.believedOpen.delete(openOrderKey(order));
        else this.believedOpen.set(openOrderKey(order), order);
        break;
      }
      case 'position':
        this.positions.set(positionKey(event.position.sym, event.position.positionSide), event.position);
        if (!corrective) {
          const at = Math.min(event.position.updateAt, this.venueNow());
          this.newestPositionReport = Math.max(this.newestPositionReport ?? at, at);
        }
        break;
      case 'asset':
        this.assets.set(event.asset.coin, event.asset);
        break;
      case 'execution':
        this.noteExecution(event.execution.transactionId, event.execution.timestamp, this.venueNow());
        break;
      case 'algoOrder':
        if (event.algoOrder.state === 'NEW')
          this.openAlgoOrders.set(event.algoOrder.clientAlgoOrderId, event.algoOrder);
        else this.openAlgoOrders.delete(event.algoOrder.clientAlgoOrderId);
        break;
      case 'loan': {
        const key = `${event.loan.exchange}:${event.loan.coin}`;
        if (event.loan.principal.isZero()) this.loans.delete(key);
        else this.loans.set(key, event.loan);
        break;
      }
    }
  }
}

/**
 * The key of an open order: its clientOrderId, or its orderId when it has none (orders placed by
 * hand all share the empty reference, and would otherwise hide each other).
 * @param order - the order
 * @returns its key
 */
export function openOrderKey(order: Pick<Order, 'clientOrderId' | 'orderId'>): string {
  return order.clientOrderId === '' ? `orderId:${order.orderId}` : `clientOrderId:${order.clientOrderId}`;
}

/**
 * An order as a log line names it: its clientOrderId, or its orderId for one placed without a
 * reference (on the venue's own page, say).
 * @param order - the order
 * @returns e.g. `mm-bid-1`, `orderId 81234`
 */
export function orderNameOf(order: Pick<Order, 'clientOrderId' | 'orderId'>): string {
  return order.clientOrderId === '' ? `orderId ${order.orderId}` : order.clientOrderId;
}
