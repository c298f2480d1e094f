import type { Logger } from 'pino';
import { type Observable, Subject } from 'rxjs';
import { fillOnOrderLeg, type KernelState, orderLegOf } from '../../core/kernel/index.ts';
import type { Execution, Order, PositionSide, UserEvent } from '../../core/model/index.ts';
import { EmptiedSignal } from './emptied-signal.ts';

/** What {@link OrderLegFills} reads besides the venue's events. */
export interface OrderLegFillsOptions {
  /** The kernel's state: its orders (Keel's placeholders included) and the account's position mode. */
  readonly state: () => KernelState;
  /**
   * Asks the venue for an order (the execution client's lookup by clientOrderId, else orderId).
   * @returns the order, or undefined when the venue does not know it
   */
  readonly lookupOrder: (sym: string, clientOrderId: string, orderId: string) => Promise<Order | undefined>;
  /** Told of a fill passed on without the leg of its order (its order could not be found). */
  readonly logger: Logger;
}

/**
 * The venue's User Data with every fill on the leg of the order it names, for the session's
 * journal (its trade list) and its kernel alike. The venue's executions carry no positionSide (the
 * spec gives one to orders and positions only), which the mapping reads as NONE: a fill whose order
 * Keel knows takes that order's leg ({@link fillOnOrderLeg}). In BOTH mode a fill of an order Keel
 * does not know yet (one the venue made, e.g. a take-profit's, pushed after its fill, or a fill
 * caught up over REST after a reconnect) cannot be put on a leg by its side alone (a BUY opens a
 * LONG or closes a SHORT): it is held, and the venue is asked for its order at once. It is passed
 * on with the first word on its order, right after the order update that names it or with the
 * lookup's answer; when the venue does not know the order or the lookup fails, it is passed on as
 * the venue sent it (NONE) and a warning says so. In NET mode every fill is passed on at once.
 */
export class OrderLegFills {
  private readonly out = new Subject<UserEvent>();
  /** Held fills by transactionId. */
  private readonly held = new Map<string, UserEvent & { kind: 'execution' }>();
  /** Settles once no fill is held (see {@link pending}). */
  private readonly drained = new EmptiedSignal();

  /**
   * @param source - the execution client's User Data
   * @param options - the kernel's state, the venue's order lookup and the logger
   */
  constructor(
    source: Observable<UserEvent>,
    private readonly options: OrderLegFillsOptions,
  ) {
    source.subscribe({
      next: (event) => this.take(event),
      error: (error: unknown) => this.out.error(error),
      complete: () => this.end(),
    });
  }

  /** The User Data, fills on their orders' legs. */
  get events(): Observable<UserEvent> {
    return this.out;
  }

  /**
   * While fills wait for their orders, a promise that settles once none does (each lookup ends,
   * answered or failed, on the execution client's own time-outs): a lockstep ack waits for it, so
   * the venue releases no later event before those fills reach the strategies.
   * @returns the promise, or undefined when no fill is held
   */
  pending(): Promise<void> | undefined {
    return this.held.size === 0 ? undefined : this.drained.next();
  }

  private take(event: UserEvent): void {
    if (event.kind !== 'execution') {
      this.out.next(event);
      if (event.kind === 'order' && this.held.size > 0) this.orderReported(event.order);
      return;
    }
    const state = this.options.state();
    const fill = fillOnOrderLeg(state.orders, event.execution);
    if (
      fill.positionSide !== 'NONE' ||
      state.positionMode() !== 'BOTH' ||
      orderLegOf(state.orders, fill) !== undefined
    ) {
      this.out.next(fill === event.execution ? event : { ...event, execution: fill });
      return;
    }
    this.held.set(fill.transactionId, event);
    this.lookUp(fill);
  }

  /** Passes on the held fills of an order the venue just reported, on its leg. */
  private orderReported(order: Order): void {
    for (const [id, event] of this.held)
      if (names(event.execution, order)) this.release(id, order.positionSide);
  }

  private lookUp(fill: Execution): void {
    const { sym, clientOrderId, orderId, transactionId } = fill;
    this.options
      .lookupOrder(sym, clientOrderId, orderId)
      .then((order) => {
        if (order === undefined) throw new Error('the venue does not know its order (401018)');
        this.release(transactionId, order.positionSide);
      })
      .catch((error: unknown) => {
        if (!this.held.has(transactionId)) return;
        this.options.logger.warn(
          { transactionId, orderId, clientOrderId, sym, err: String(error) },
          'could not find the order of a fill in BOTH mode: the fill is booked on the NONE leg',
        );
        this.release(transactionId, undefined);
      });
  }

  private release(transactionId: string, positionSide: PositionSide | undefined): void {
    const event = this.held.get(transactionId);
    if (event === undefined) return;
    this.held.delete(transactionId);
    this.out.next(
      positionSide === undefined ? event : { ...event, execution: { ...event.execution, positionSide } },
    );
    if (this.held.size === 0) this.drained.emptied();
  }

  /** The venue's events ended (the session stops): the fills still held are passed on as they are. */
  private end(): void {
    if (this.held.size > 0)
      this.options.logger.warn(
        { transactionIds: [...this.held.keys()] },
        'the session ends before the orders of fills in BOTH mode were found: they are booked on the NONE leg',
      );
    for (const id of [...this.held.keys()]) this.release(id, undefined);
    this.out.complete();
  }
}

function names(fill: Execution, order: Order): boolean {
  return (
    (fill.clientOrderId !== '' && fill.clientOrderId === order.clientOrderId) ||
    (fill.orderId !== '' && fill.orderId === order.orderId)
  );
}
