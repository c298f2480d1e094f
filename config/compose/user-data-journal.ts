import {
  type AlgoOrderRecord,
  type DenialRecord,
  type FillRecord,
  isFinalAlgoState,
  LiquidationJournal,
  nextAlgoOrderRecord,
  type OrderRecord,
} from '../../backtest/report/index.ts';
import { denialRecordOf } from '../../backtest/runner/index.ts';
import { isNewerOrderUpdate } from '../../core/execution/index.ts';
import { BookedFills, type IntentDenied } from '../../core/kernel/index.ts';
import type { AlgoOrder, Execution, Order, UserEvent } from '../../core/model/index.ts';
import { OrderRejections } from './order-rejections.ts';
import type { RunMetrics } from './run-metrics.ts';

/**
 * What a live or paper session keeps of the venue's User Data stream for its result: the fills,
 * the latest state of every order and algo order (with the strategy owning it), the rejections,
 * the liquidations and the intents the kernel denied; fills and acks are also counted in the
 * session's metrics. A fill the venue pushed twice (a duplicate push, a replay
 * after a reconnect) counts once, by transactionId, with the kernel's own {@link BookedFills}; an order update goes
 * through the order state machine, so a stale or duplicate one never overwrites a newer state.
 */
export class UserDataJournal {
  /** Every fill, in arrival order, with the strategy owning its order when known. */
  readonly fills: FillRecord[] = [];
  /** Every denied intent and refused command, in the order the kernel reported them. */
  readonly denials: DenialRecord[] = [];
  /** Orders placed and refused, for the session's warnings. */
  readonly rejections = new OrderRejections();
  /** Liquidation events and positions, for the result. */
  readonly liquidations = new LiquidationJournal();
  private readonly orders = new Map<string, OrderRecord>();
  private readonly algoOrders = new Map<string, AlgoOrderRecord>();
  /** The key of each algo order in `algoOrders` by the venue's algoOrderId, for the order it sends. */
  private readonly algoKeys = new Map<string, string>();
  private readonly bookedFills = new BookedFills();

  /**
   * @param metrics - the session's metrics (fills, acknowledged orders)
   * @param onFill - called on every fill (e.g. to print it)
   * @param ownerOf - the strategy owning a clientOrderId or clientAlgoOrderId (the kernel's
   *   record), undefined for orders nobody in the session placed
   */
  constructor(
    private readonly metrics: RunMetrics,
    private readonly onFill: ((fill: Execution) => void) | undefined,
    private readonly ownerOf: (ref: string) => string | undefined = () => undefined,
  ) {}

  /**
   * Takes one User Data event.
   * @param event - the event as the execution client emitted it
   */
  observe(event: UserEvent): void {
    if (event.kind === 'execution') {
      if (!this.bookedFills.book(event.execution.transactionId)) return;
      const owner = this.ownerOf(event.execution.clientOrderId);
      this.fills.push(owner === undefined ? event.execution : { ...event.execution, strategyId: owner });
      this.metrics.fills.inc();
      this.onFill?.(event.execution);
    } else if (event.kind === 'order') {
      // By reference: the adapter's own REJECTED of an order carries no orderId, the venue's does.
      const key = event.order.clientOrderId || event.order.orderId;
      const known = this.orders.get(key);
      if (known === undefined || isNewerOrderUpdate(known, event.order)) {
        const owner = this.ownerOf(event.order.clientOrderId) ?? known?.strategyId;
        this.orders.set(key, owner === undefined ? event.order : { ...event.order, strategyId: owner });
      }
      this.rejections.observe(event.order);
      if (event.order.orderState !== 'REJECTED') this.metrics.acknowledged(event.order.clientOrderId);
      if (event.order.algoOrderId) this.fired(event.order.algoOrderId, event.order);
    } else if (event.kind === 'algoOrder') {
      this.foldAlgo(event.algoOrder);
    } else if (event.kind === 'liquidationEvent' || event.kind === 'liquidationPosition') {
      this.liquidations.observe(event);
    } else if (event.kind === 'commandRejected') {
      this.rejections.observeCommand(event);
    }
  }

  private foldAlgo(algo: AlgoOrder): void {
    const key = algo.clientAlgoOrderId || algo.algoOrderId;
    const next = nextAlgoOrderRecord(this.algoOrders.get(key), algo, this.ownerOf(algo.clientAlgoOrderId));
    if (next === undefined) return;
    this.algoOrders.set(key, next);
    if (next.algoOrderId !== '') this.algoKeys.set(next.algoOrderId, key);
  }

  /**
   * The venue pushes no algo order updates (the spec has no such User Data channel: a session
   * learns of its algo orders from the REST replies), but the order an algo order sends when it
   * fires names it (`algoOrderId`): the algo order is then marked TRIGGERED at that order's
   * creation, with that order as the one it sent (Keel's choice).
   */
  private fired(algoOrderId: string, order: Order): void {
    const key = this.algoKeys.get(algoOrderId);
    const record = key === undefined ? undefined : this.algoOrders.get(key);
    if (record === undefined || isFinalAlgoState(record.state)) return;
    const { steps: _steps, strategyId: _owner, ...algo } = record;
    this.foldAlgo({
      ...algo,
      state: 'TRIGGERED',
      orderId: order.orderId,
      updateAt: Math.max(record.updateAt, order.createAt),
    });
  }

  /**
   * Takes an intent the kernel denied (or a command the venue refused), as the strategy was told.
   * @param denial - the kernel's denial
   */
  denied(denial: IntentDenied): void {
    this.denials.push(denialRecordOf(denial));
  }

  /** The latest state of every order, in first-seen order. @returns the orders */
  orderList(): OrderRecord[] {
    return [...this.orders.values()];
  }

  /**
   * The references of the algo orders the session's record still has open (NEW): what it may ask
   * the venue about at the end, as a cancel-all or a stop's cancel names no algo order.
   * @returns clientAlgoOrderIds, in first-seen order
   */
  openAlgoRefs(): string[] {
    const refs: string[] = [];
    for (const record of this.algoOrders.values())
      if (!isFinalAlgoState(record.state) && record.clientAlgoOrderId !== '')
        refs.push(record.clientAlgoOrderId);
    return refs;
  }

  /** Every algo order in its latest state with its steps, in first-seen order. @returns the algo orders */
  algoOrderList(): AlgoOrderRecord[] {
    return [...this.algoOrders.values()];
  }

  /**
   * Orders the venue still holds open, by the session's own record (the kernel has stopped listening).
   * @returns their syms and references, in first-seen order
   */
  openOrders(): { readonly sym: string; readonly clientOrderId: string }[] {
    const open: { sym: string; clientOrderId: string }[] = [];
    for (const order of this.orders.values())
      if (['NEW', 'OPEN', 'PARTIALLY_FILLED'].includes(order.orderState))
        open.push({ sym: order.sym, clientOrderId: order.clientOrderId });
    return open;
  }

  /** Orders the venue still holds open, by the session's own record (the kernel has stopped listening). @returns how many */
  openOrderCount(): number {
    let open = 0;
    for (const order of this.orders.values())
      if (['NEW', 'OPEN', 'PARTIALLY_FILLED'].includes(order.orderState)) open++;
    return open;
  }
}
