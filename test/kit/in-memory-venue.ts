import { Subject } from 'rxjs';
import type { ExecutionPort, VenueSnapshot } from '../../core/execution/index.ts';
import type { Clock } from '../../core/kernel/index.ts';
import type { Execution, Order, PlaceOrderIntent, UserEvent } from '../../core/model/index.ts';
import { ZERO } from '../../core/model/index.ts';
import type { ApprovedIntent } from '../../core/risk/index.ts';

/** A tiny venue for kernel tests: answers every command at once with User Data events. */
export interface InMemoryVenue extends ExecutionPort {
  /** Every approved command, in order. */
  readonly submitted: ApprovedIntent[];
  /** Orders as the venue holds them, by clientOrderId. */
  readonly orders: Map<string, Order>;
}

/**
 * An in-memory execution port. Synchronously (inside `submit`, the hard case for the kernel):
 * a limit order becomes OPEN; a market order is FILLED at `priceOf(sym)` with one execution and
 * a position update; a cancel makes the order CANCELLED; a modify changes qty / price (action
 * AMEND_COMPLETED). Other commands are swallowed. Order ids are `v1`, `v2`...
 * @param clock - stamps the events
 * @param priceOf - the fill price of market orders
 * @returns the port
 */
export function inMemoryVenue(clock: Clock, priceOf: (sym: string) => number): InMemoryVenue {
  const events = new Subject<UserEvent>();
  const orders = new Map<string, Order>();
  const positions = new Map<string, Execution[]>();
  let nextId = 0;
  const emitOrder = (order: Order): void => {
    orders.set(order.clientOrderId, order);
    const ts = clock.now();
    events.next({ kind: 'order', ts, recvTs: ts, order });
  };
  const place = (intent: PlaceOrderIntent): void => {
    const ts = clock.now();
    nextId++;
    const order: Order = {
      orderId: `v${nextId}`,
      clientOrderId: intent.ref,
      portfolioId: 'p-1',
      sym: intent.sym,
      side: intent.side,
      orderType: intent.orderType,
      timeInForce: intent.timeInForce,
      orderState: 'OPEN',
      orderQty: intent.qty,
      limitPrice: intent.price ?? ZERO,
      executedQty: ZERO,
      executedAmount: ZERO,
      executedAvgPrice: ZERO,
      fee: ZERO,
      feeCoin: 'USDT',
      reduceOnly: intent.reduceOnly,
      positionSide: intent.positionSide,
      action: 'PLACE',
      createAt: ts,
      updateAt: ts,
    };
    if (intent.orderType === 'LIMIT') {
      emitOrder(order);
      return;
    }
    const price = ZERO.add(priceOf(intent.sym));
    const execution: Execution = {
      transactionId: `t${nextId}`,
      portfolioId: 'p-1',
      orderId: order.orderId,
      clientOrderId: intent.ref,
      sym: intent.sym,
      side: intent.side,
      positionSide: intent.positionSide,
      quantity: intent.qty,
      price,
      fee: ZERO,
      feeCoin: 'USDT',
      rebate: ZERO,
      rpnl: ZERO,
      execType: 'TAKER',
      timestamp: ts,
    };
    emitOrder({
      ...order,
      orderState: 'FILLED',
      action: 'FILL',
      executedQty: intent.qty,
      executedAmount: intent.qty.mul(price),
      executedAvgPrice: price,
    });
    events.next({ kind: 'execution', ts, recvTs: ts, execution });
    const fills = [...(positions.get(intent.sym) ?? []), execution];
    positions.set(intent.sym, fills);
    const qty = fills.reduce(
      (sum, f) => (f.side === 'BUY' ? sum.add(f.quantity) : sum.sub(f.quantity)),
      ZERO,
    );
    events.next({
      kind: 'position',
      ts,
      recvTs: ts,
      position: {
        positionId: `pos-${intent.sym}`,
        portfolioId: 'p-1',
        sym: intent.sym,
        positionSide: intent.positionSide,
        positionQty: qty,
        avgPrice: price,
        markPrice: price,
        positionValue: qty.mul(price),
        positionMargin: ZERO,
        positionMM: ZERO,
        unrealizedPNL: ZERO,
        leverage: ZERO.add(1),
        liqPrice: ZERO,
        adlRank: 0,
        createAt: ts,
        updateAt: ts,
      },
    });
  };
  const cancel = (ref: string): void => {
    const order = orders.get(ref);
    if (order === undefined || order.orderState !== 'OPEN') return;
    emitOrder({ ...order, orderState: 'CANCELLED', action: 'CANCEL_COMPLETED', updateAt: clock.now() });
  };
  const port: InMemoryVenue = {
    submitted: [],
    orders,
    events: events.asObservable(),
    submit(command: ApprovedIntent): void {
      port.submitted.push(command);
      const intent = command.intent;
      switch (intent.kind) {
        case 'placeOrder':
          place(intent);
          return;
        case 'cancelOrder':
          cancel(intent.target);
          return;
        case 'cancelOrders':
          for (const target of intent.targets ?? []) cancel(target);
          return;
        case 'modifyOrder': {
          const order = orders.get(intent.target);
          if (order === undefined) return;
          emitOrder({
            ...order,
            orderQty: intent.qty ?? order.orderQty,
            limitPrice: intent.price ?? order.limitPrice,
            action: 'AMEND_COMPLETED',
            updateAt: clock.now(),
          });
          return;
        }
        default:
          return;
      }
    },
    lookupOrder(_sym: string, clientOrderId: string): Promise<Order | undefined> {
      return Promise.resolve(orders.get(clientOrderId));
    },
    snapshot(): Promise<VenueSnapshot> {
      const openOrders = [...orders.values()].filter((o) => o.orderState === 'OPEN');
      return Promise.resolve({ ts: clock.now(), openOrders, openAlgoOrders: [], positions: [], assets: [] });
    },
  };
  return port;
}
