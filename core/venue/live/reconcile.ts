import type { VenueSnapshot } from '../../execution/index.ts';
import type { Order, UserEvent } from '../../model/index.ts';

/**
 * Corrective events from a venue snapshot: every open order, position and asset as the venue
 * holds them, and the account. The kernel folds them like any update, so its state matches the
 * venue after a (re)connect.
 * @param snapshot - the venue's state
 * @param recvTs - local time of the snapshot
 * @returns the events, orders first
 */
export function snapshotEvents(snapshot: VenueSnapshot, recvTs: number): UserEvent[] {
  const ts = snapshot.ts;
  return [
    ...snapshot.openOrders.map((order): UserEvent => ({ kind: 'order', ts, recvTs, order })),
    ...snapshot.openAlgoOrders.map((algoOrder): UserEvent => ({ kind: 'algoOrder', ts, recvTs, algoOrder })),
    ...snapshot.positions.map((position): UserEvent => ({ kind: 'position', ts, recvTs, position })),
    ...snapshot.assets.map((asset): UserEvent => ({ kind: 'asset', ts, recvTs, asset })),
    ...(snapshot.account === undefined
      ? []
      : [{ kind: 'account', ts, recvTs, account: snapshot.account } as UserEvent]),
  ];
}

/**
 * Orders Keel believes open that the venue no longer lists: they were filled, cancelled or
 * rejected while the connection was down, and must be looked up one by one.
 * @param believedOpen - Keel's open orders by clientOrderId
 * @param snapshot - the venue's state
 * @returns the clientOrderIds (with sym) to look up
 */
export function vanishedOrders(
  believedOpen: ReadonlyMap<string, Order>,
  snapshot: VenueSnapshot,
): Array<{ sym: string; clientOrderId: string }> {
  const listed = new Set(snapshot.openOrders.map((order) => order.clientOrderId));
  return [...believedOpen.values()]
    .filter((order) => !listed.has(order.clientOrderId))
    .map((order) => ({ sym: order.sym, clientOrderId: order.clientOrderId }));
}
