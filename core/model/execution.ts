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
  readonly timestamp: number;
}
