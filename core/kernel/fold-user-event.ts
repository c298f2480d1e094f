import type { UserEvent } from '../model/index.ts';
import { fillOnOrderLeg } from './fill-leg.ts';
import type { KernelState } from './kernel-state.ts';

/**
 * Folds one User Data event into the kernel state.
 * @param state - the state to update
 * @param event - the event
 * @returns false when the event changed nothing and must not reach strategies: a stale or
 *   duplicate order update, a fill already booked (same transactionId, e.g. after a reconnect), or
 *   a position report older than the leg's latest. A fill is booked on the leg of the order it
 *   names when it says NONE (see {@link fillOnOrderLeg})
 */
export function foldUserEvent(state: KernelState, event: UserEvent): boolean {
  switch (event.kind) {
    case 'order':
      return state.orders.applyVenue(event.order);
    case 'execution': {
      if (!state.bookFill(event.execution.transactionId)) return false;
      const fill = fillOnOrderLeg(state.orders, event.execution);
      state.noteFill(fill);
      state.portfolio?.applyFill(fill);
      return true;
    }
    case 'position': {
      const p = event.position;
      if (!state.applyPosition(p)) return false;
      // A position states its rank when its venue knows it; a flat one has none left.
      if (p.adlRank > 0 || p.positionQty.isZero())
        state.adlRanks.set(state.legKey(p.sym, p.positionSide), p.adlRank);
      return true;
    }
    case 'asset':
      state.applyAsset(event.asset, event.ts);
      return true;
    case 'account':
      state.applyAccount(event.account, event.ts);
      return true;
    case 'liquidationEvent':
      if (state.liquidation?.liquidationEventId !== event.record.liquidationEventId) {
        state.liquidationPositions.length = 0;
      }
      state.liquidation = event.record;
      return true;
    case 'liquidationPosition':
      state.liquidationPositions.push(event.record);
      return true;
    case 'algoOrder':
      return state.orders.applyAlgo(event.algoOrder);
    case 'adlRank':
      state.adlRanks.set(state.legKey(event.sym, event.positionSide), event.rank);
      return true;
    case 'loan':
      state.loans.set(`${event.loan.exchange}|${event.loan.coin}`, event.loan);
      return true;
    case 'commandRejected':
      return true;
  }
}
