import { z } from 'zod';
import { decimalText, epochMs, type PageRequest, positionSideText, sideText } from './common.ts';
import { triggerTypeText } from './order.ts';

/** An algo (conditional) order as `/api/v1/algo/*` report it; values of the type fields are Keel's (spec: not shown). */
export const algoOrderWireSchema = z.looseObject({
  algoOrderId: z.string(),
  clientAlgoOrderId: z.string().optional(),
  portfolioId: z.string().optional(),
  sym: z.string(),
  side: sideText,
  algoOrderType: z.string(),
  conditionType: z.string(),
  triggerType: triggerTypeText.optional(),
  triggerPrice: decimalText,
  price: decimalText.optional(),
  qty: decimalText,
  reduceOnly: z.boolean().optional(),
  positionSide: positionSideText.optional(),
  algoOrderState: z.string(),
  orderId: z.string().optional(),
  /** The order a take-profit / stop-loss attachment belongs to (spec: named by the algo endpoints). */
  attachedOrderId: z.string().optional(),
  createAt: epochMs.optional(),
  updateAt: epochMs.optional(),
});
/** A decoded algo order. */
export type AlgoOrderWire = z.output<typeof algoOrderWireSchema>;

/** Body of `POST /api/v1/algo/order`. orderType, timeInForce and quoteOrderQty are not accepted (spec). */
export interface PlaceAlgoOrderBody {
  readonly sym: string;
  readonly side: 'BUY' | 'SELL';
  readonly clientAlgoOrderId?: string;
  readonly algoOrderType: string;
  readonly conditionType: string;
  readonly triggerType: 'MarkPrice' | 'LastPrice';
  readonly triggerPrice: string;
  readonly price: string;
  readonly qty: string;
  readonly reduceOnly?: boolean;
  readonly positionSide?: 'NONE' | 'LONG' | 'SHORT';
}

/** Fields the spec says `POST /api/v1/algo/order` does not accept. */
export const ALGO_PLACE_REFUSED_FIELDS = ['orderType', 'timeInForce', 'quoteOrderQty'] as const;
/** Field the spec says cancel / query algo order endpoints do not accept. */
export const ALGO_QUERY_REFUSED_FIELDS = ['attachedOrderId'] as const;

/** Which algo order: algoOrderId or clientAlgoOrderId. */
export interface AlgoOrderRef {
  readonly algoOrderId?: string;
  readonly clientAlgoOrderId?: string;
}

/** Body of `PUT /api/v1/algo/order`. */
export interface ReplaceAlgoOrderBody extends AlgoOrderRef {
  readonly sym: string;
  readonly triggerPrice?: string;
  readonly price?: string;
  readonly qty?: string;
}

/** Query of algo order history. */
export interface AlgoHistoryQuery extends PageRequest {
  readonly sym?: string;
}

/** Optional filters of `DELETE /api/v1/algo/cancelAll` (spec). */
export interface CancelAllAlgoBody {
  readonly sym?: string;
  readonly exchangeType?: string;
  readonly businessType?: string;
  readonly algoOrderType?: string;
  readonly conditionType?: string;
}
