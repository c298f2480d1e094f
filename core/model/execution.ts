import type { Dec } from './decimal.ts';
import type { OrderSide } from './order.ts';
import type { PositionSide } from './position.ts';

/** Whether a fill added liquidity (MAKER) or took it (TAKER). */
export type ExecType = 'MAKER' | 'TAKER';

/** One execution (fill) as the venue's Trades channel and executions endpoints report it. */
export interface Execution {
  readonly transactionId: string;
  readonly portfolioId: string;
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly sym: string;
  readonly side: OrderSide;
  readonly positionSide: PositionSide;
  readonly quantity: Dec;
  readonly price: Dec;
  readonly fee: Dec;
  readonly feeCoin: string;
  readonly rebate: Dec;
  /** Realized PnL of this fill, as the venue reports it. */
  readonly rpnl: Dec;
  readonly execType: ExecType;
  /**
   * The venue's own execType text when it is neither MAKER nor TAKER (e.g. a liquidation or ADL
   * fill the public venue docs do not list); `execType` is then TAKER. Absent otherwise.
   */
  readonly venueExecType?: string;
  /**
   * Set by Keel, never by a venue: the reference of the strategy's position close
   * (`ctx.order.closePosition` / `closePositions`, the intent's `ref`) that made this fill's
   * order, whose `clientOrderId` the venue chose (see `Order.closeRef`): a strategy tells its
   * close's fills by this field in every mode. Absent on other fills, and on those of a close
   * order two strategies' closes of one leg may have made (it is neither's).
   */
  readonly closeRef?: string;
  readonly timestamp: number;
}
