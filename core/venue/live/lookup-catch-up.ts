import type { Logger } from 'pino';
import { isFinalOrderState, type Order } from '../../model/index.ts';
import type { TimerPort } from '../timer-port.ts';
import { type LocalTradingView, orderNameOf } from './local-trading-view.ts';

/**
 * Keel's choice for `venue.reconcileEveryMs` (the execution client alone reconciles periodically
 * only when asked to, `LiveExecutionOptions.reconcileEveryMs`): 30 s. A reconciliation while
 * connected costs a handful of REST reads; every 30 s that bounds how long a User Data push the venue lost without closing the
 * socket (an order's fill, its amendment) goes unseen, and stays within the execution catch-up's
 * 60 s look-back (`DEFAULT_EXECUTION_CATCH_UP.marginMs`), so the lost fills are among those it lists.
 */
export const DEFAULT_RECONCILE_EVERY_MS = 30_000;

/** What {@link LookupCatchUp} needs from the live execution client. */
export interface LookupCatchUpOptions {
  /** The client's local view: what its events told of each order. */
  readonly view: LocalTradingView;
  /** Asks for a reconciliation (snapshot, executions missed, corrections; see `ReconciliationRuns`). */
  readonly reconcile: () => void;
  /** Whether the private stream is logged in and reconciled (a periodic one is skipped otherwise). */
  readonly reconciled: () => boolean;
  readonly timer: TimerPort;
  /** Period of the reconciliation while connected, ms; 0 for none. */
  readonly everyMs: number;
  readonly logger: Logger;
}

/**
 * Catches Keel up when the venue shows more than its pushes told: a lost User Data push leaves no
 * trace but the venue's own word, so
 * - an order the venue answers a lookup with (after a lost ack, a modify or cancel refused as
 *   already final, a command without answer) executed further than Keel's view holds it, or
 *   final while the view holds it open, asks for a reconciliation, which fetches the executions
 *   missed (`executions/pageable`) and reports them, and the order's state, to every listener;
 * - a reconciliation runs every `everyMs` while the private stream is reconciled, so a push lost
 *   on an order nobody looks up (a quote filled while the socket stayed up) is caught up too.
 */
export class LookupCatchUp {
  private cancelTimer: () => void = () => undefined;
  private stopped = false;

  /** @param options - the view, how to reconcile, and the period */
  constructor(private readonly options: LookupCatchUpOptions) {}

  /** Starts the periodic reconciliation (none when `everyMs` is 0). */
  start(): void {
    this.schedule();
  }

  /** Stops the periodic reconciliation. */
  stop(): void {
    this.stopped = true;
    this.cancelTimer();
  }

  /**
   * A lookup answered: a reconciliation is asked for when the venue's order is ahead of the view.
   * @param found - the venue's order; undefined when it does not know it
   */
  answered(found: Order | undefined): void {
    if (found === undefined || !aheadOf(found, this.options.view.openOrder(found))) return;
    this.options.logger.warn(
      {
        clientOrderId: found.clientOrderId,
        orderId: found.orderId,
        orderState: found.orderState,
        executedQty: found.executedQty.toString(),
      },
      `the venue shows order ${orderNameOf(found)} ${found.orderState}, executed ${found.executedQty.toString()}, beyond what its pushes told Keel (one was lost): reconciling to fetch its fills and state`,
    );
    this.options.reconcile();
  }

  private schedule(): void {
    const { everyMs, timer } = this.options;
    if (everyMs <= 0 || this.stopped) return;
    this.cancelTimer = timer.setTimer(() => {
      if (this.options.reconciled()) this.options.reconcile();
      this.schedule();
    }, everyMs);
  }
}

/**
 * Whether the venue's order is ahead of Keel's view: final while the view holds it open, or
 * executed further than the view's open order (or at all, when the view holds none open: an order
 * whose ack was lost).
 */
function aheadOf(found: Order, known: Order | undefined): boolean {
  if (known === undefined) return found.executedQty.gt(0);
  return isFinalOrderState(found.orderState) || found.executedQty.gt(known.executedQty);
}
