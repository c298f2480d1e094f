import type { Position, UserEvent } from '../model/index.ts';
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
      const key = state.legKey(event.position.sym, event.position.positionSide);
      const p = withKnownRank(event.position, state.adlRanks.get(key));
      if (!state.applyPosition(p)) return false;
      // A position states its rank when its venue knows it; a flat one has none left.
      if (p.adlRank > 0 || p.positionQty.isZero()) state.adlRanks.set(key, p.adlRank);
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
    case 'adlRank': {
      const key = state.legKey(event.sym, event.positionSide);
      state.adlRanks.set(key, event.rank);
      const held = state.positions.get(key);
      if (held !== undefined && held.adlRank !== event.rank)
        state.positions.set(key, { ...held, adlRank: event.rank });
      return true;
    }
    case 'loan':
      state.loans.set(`${event.loan.exchange}|${event.loan.coin}`, event.loan);
      return true;
    case 'commandRejected':
      return true;
  }
}

/**
 * A live venue's position reports carry no ADL rank (it is read apart, as `adlRank` events): an
 * open position reported with none keeps the rank last read for its leg, so the position a
 * strategy reads states the same rank as `ctx.adlRank()`.
 * @param position - the position as reported
 * @param known - the leg's rank last read (undefined: none yet)
 * @returns the position, with the known rank when it states none
 */
function withKnownRank(position: Position, known: number | undefined): Position {
  if (position.adlRank > 0 || known === undefined || known === 0 || position.positionQty.isZero())
    return position;
  return { ...position, adlRank: known };
}
