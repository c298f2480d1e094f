import type { LocalTradingState } from '../../execution/index.ts';
import {
  type AlgoOrder,
  type Asset,
  isFinalOrderState,
  type Order,
  type Position,
  positionKey,
  type UserEvent,
} from '../../model/index.ts';

/**
 * What the live execution client believes the venue holds (open orders and algo orders,
 * positions, assets), kept from the events it emits: the local view reconciliation compares with
 * the venue's snapshot after every (re)connect.
 */
export class LocalTradingView {
  private readonly believedOpen = new Map<string, Order>();
  private readonly positions = new Map<string, Position>();
  private readonly assets = new Map<string, Asset>();
  private readonly openAlgoOrders = new Map<string, AlgoOrder>();

  /**
   * Keeps the local view up to date with one event the client passes on.
   * @param event - the User Data event
   */
  observe(event: UserEvent): void {
    switch (event.kind) {
      case 'order': {
        const order = event.order;
        if (isFinalOrderState(order.orderState)) this.believedOpen.delete(order.clientOrderId);
        else this.believedOpen.set(order.clientOrderId, order);
        break;
      }
      case 'position':
        this.positions.set(positionKey(event.position.sym, event.position.positionSide), event.position);
        break;
      case 'asset':
        this.assets.set(event.asset.coin, event.asset);
        break;
      case 'algoOrder':
        if (event.algoOrder.state === 'NEW')
          this.openAlgoOrders.set(event.algoOrder.clientAlgoOrderId, event.algoOrder);
        else this.openAlgoOrders.delete(event.algoOrder.clientAlgoOrderId);
        break;
    }
  }

  /** The view as reconciliation takes it. @returns copies of the open orders, positions, assets and open algo orders */
  state(): LocalTradingState {
    return {
      openOrders: [...this.believedOpen.values()],
      positions: [...this.positions.values()],
      assets: [...this.assets.values()],
      openAlgoOrders: [...this.openAlgoOrders.values()],
    };
  }
}
