import { z } from 'zod';
import { decimalText, epochMs, type PageRequest, positionSideText, sideText } from './common.ts';

/**
 * An execution (fill) as the executions endpoints and the Trades channel report it. Field names
 * per public venue docs; the spec names transactionId, portfolioId, sym, rpnl, execType and
 * timestamp (Keel accepts `timestamp` or the public `createAt`).
 */
export const executionWireSchema = z.looseObject({
  transactionId: z.string(),
  portfolioId: z.string().optional(),
  orderId: z.string(),
  clientOrderId: z.string().optional(),
  exchangeType: z.string().optional(),
  businessType: z.string().optional(),
  sym: z.string(),
  side: sideText,
  /** Not in the spec's or the public docs' execution fields (the paper venue sends it): optional. */
  positionSide: positionSideText.optional(),
  quantity: decimalText,
  price: decimalText,
  tradingFee: decimalText.optional(),
  tradingFeeCoin: z.string().optional(),
  fee: decimalText.optional(),
  feeCoin: z.string().optional(),
  rebate: decimalText.optional(),
  rpnl: decimalText.optional(),
  /**
   * TAKER / MAKER per public venue docs; any other text (a liquidation or ADL fill the docs do not
   * list) is kept, so such a fill is never dropped: the mapping decides what it means.
   */
  execType: z.string(),
  timestamp: epochMs.optional(),
  createAt: epochMs.optional(),
});
/** A decoded execution. */
export type ExecutionWire = z.output<typeof executionWireSchema>;

/** Query of the three execution endpoints; the spec adds exchange and businessType. */
export interface ExecutionsQuery extends PageRequest {
  readonly sym?: string;
  readonly orderId?: string;
  readonly exchange?: string;
  readonly businessType?: string;
  /** Paginated recent executions only: the spec names a limit parameter. */
  readonly limit?: number;
}
