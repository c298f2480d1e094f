import type { UserEvent } from '../../core/model/index.ts';
import { userDataFrame } from '../../core/venue/index.ts';
import { paperOrderToWire } from './order-wire.ts';
import type { PortfolioBook } from './portfolio-book.ts';
import {
  accountToWire,
  assetToWire,
  executionToWire,
  liquidationEventToWire,
  liquidationPositionToWire,
  positionToWire,
} from './wire-views.ts';

/**
 * The User Data frame of an event, or undefined for events without a channel on this connection.
 * The sim reports each liquidation order twice (`byUser` false, then true); per the spec the
 * LiquidationPosition copy goes to the liquidated portfolio's own connection and the
 * LiquidationPositionByUser copy to the main account's connection (which covers the main
 * portfolio and every sub-portfolio), each once.
 * @param book - the event's portfolio
 * @param event - a sim event
 * @param own - true when the event is of the connection's own portfolio
 * @param onMain - true on the main account's connection
 * @returns the frame text
 */
export function userDataFrameOf(
  book: PortfolioBook,
  event: UserEvent,
  own: boolean,
  onMain: boolean,
): string | undefined {
  const frame = (channel: string, data: unknown) => JSON.stringify(userDataFrame(channel, [data], event.ts));
  if (event.kind === 'liquidationPosition') {
    const data = liquidationPositionToWire(event.record);
    if (event.byUser) return onMain ? frame('LiquidationPositionByUser', data) : undefined;
    return own ? frame('LiquidationPosition', data) : undefined;
  }
  if (!own) return undefined;
  switch (event.kind) {
    case 'order':
      return frame('Orders', paperOrderToWire(book, event.order));
    case 'execution':
      return frame('Trades', executionToWire(event.execution));
    case 'position':
      return frame('Positions', positionToWire(event.position));
    case 'asset':
      return frame('Assets', assetToWire(event.asset));
    case 'account':
      return frame('Accounts', accountToWire(event.account));
    case 'liquidationEvent':
      return frame('LiquidationEvent', liquidationEventToWire(event.record));
    default:
      return undefined;
  }
}
