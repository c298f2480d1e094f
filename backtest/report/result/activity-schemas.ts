import { z } from 'zod';
import type { AlgoOrderRecord } from './algo-order-record.ts';
import type { DenialRecord } from './denial-record.ts';
import { decimalField, positionSideField, sideField } from './field-schemas.ts';
import type { TrailingStopRecord } from './trailing-stop-record.ts';

const algoState = z.enum(['NEW', 'TRIGGERED', 'CANCELLED', 'FAILED']);

/** The schema of one algo order in a result file (`algoOrders[i]`). */
export const algoOrderRecordSchema: z.ZodType<AlgoOrderRecord, unknown> = z.object({
  algoOrderId: z.string(),
  clientAlgoOrderId: z.string(),
  portfolioId: z.string(),
  strategyId: z.string().optional(),
  sym: z.string(),
  side: sideField,
  algoOrderType: z.enum(['TRIGGER', 'TP_SL']),
  conditionType: z.enum(['GTE', 'LTE']),
  triggerType: z.enum(['MarkPrice', 'LastPrice']),
  triggerPrice: decimalField,
  price: decimalField,
  qty: decimalField,
  reduceOnly: z.boolean(),
  positionSide: positionSideField,
  state: algoState,
  orderId: z.string().optional(),
  attachedOrderId: z.string().optional(),
  createAt: z.number(),
  updateAt: z.number(),
  steps: z.array(
    z.object({
      ts: z.number(),
      state: algoState,
      triggerPrice: decimalField,
      price: decimalField,
      qty: decimalField,
    }),
  ),
});

/** The schema of one denied intent in a result file (`denials[i]`). */
export const denialRecordSchema: z.ZodType<DenialRecord, unknown> = z.object({
  ts: z.number(),
  strategyId: z.string(),
  intentKind: z.string(),
  ref: z.string(),
  sym: z.string().optional(),
  source: z.enum(['kernel', 'risk', 'venue']),
  check: z.string(),
  reason: z.string(),
});

const trailingStatus = z.enum(['PENDING', 'ACTIVE', 'TRIGGERED', 'CANCELLED']);

/** The schema of one emulated trailing stop in a result file (`trailingStops[i]`). */
export const trailingStopRecordSchema: z.ZodType<TrailingStopRecord, unknown> = z.object({
  ref: z.string(),
  strategyId: z.string(),
  sym: z.string(),
  side: sideField,
  qty: decimalField,
  reduceOnly: z.boolean(),
  positionSide: positionSideField,
  offsetType: z.enum(['PRICE', 'TICKS', 'BPS']),
  offset: decimalField,
  activationPrice: decimalField.optional(),
  triggerOn: z.enum(['last', 'mark', 'bidAsk']),
  status: trailingStatus,
  stopPrice: decimalField.optional(),
  bestPrice: z.number().optional(),
  crossPrice: z.number().optional(),
  cancelReason: z.enum(['cancel', 'runEnded']).optional(),
  createAt: z.number(),
  updateAt: z.number(),
  steps: z.array(z.object({ ts: z.number(), status: trailingStatus, stopPrice: decimalField.optional() })),
});
