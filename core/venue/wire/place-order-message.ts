import { z } from 'zod';
import { RequestRuleError } from '../errors.ts';

/** PLACE_ORDER args (spec, equities flavour). */
export interface PlaceOrderArgs {
  readonly brokerClientId: string;
  readonly exchangeCode: 'US';
  readonly productCode: string;
  readonly bsFlag: 'B' | 'S';
  readonly orderType: 'L' | 'M';
  /** Always sent; "0" for market orders. */
  readonly price: string;
  readonly qty: number;
  readonly orderValidity?: 'Day' | 'FAK' | 'FOK' | 'GTD' | 'GTC';
  /** YYYY-MM-DD, required with GTD. */
  readonly orderExpiryDate?: string;
  readonly reference?: string;
  readonly conditionCode?: 'UT' | 'DT' | 'SL' | 'OCO' | 'TIME' | 'HOLD' | '';
  readonly triggerPrice?: string;
  readonly stopPrice?: string;
  /** yyyy-MM-dd HH:mm:ss, required with TIME. */
  readonly timeToSend?: string;
  readonly extendedTrading?: boolean;
  /**
   * NONE, LONG or SHORT: not in the spec's PLACE_ORDER table, but the spec lists positionSide
   * among the place-order request fields over WebSocket, and in BOTH mode the venue needs it.
   */
  readonly positionSide?: 'NONE' | 'LONG' | 'SHORT';
}

/** Schema of PLACE_ORDER args (types only; the cross-field rules are in {@link placeOrderArgsProblem}). */
export const placeOrderArgsSchema = z.looseObject({
  brokerClientId: z.string(),
  exchangeCode: z.string(),
  productCode: z.string(),
  bsFlag: z.string(),
  orderType: z.string(),
  price: z.string(),
  qty: z.number(),
  orderValidity: z.string().optional(),
  orderExpiryDate: z.string().optional(),
  reference: z.string().optional(),
  conditionCode: z.string().optional(),
  triggerPrice: z.string().optional(),
  stopPrice: z.string().optional(),
  timeToSend: z.string().optional(),
  extendedTrading: z.boolean().optional(),
  positionSide: z.string().optional(),
});

/** PLACE_ORDER_ACK data (spec). */
export const placeOrderAckDataSchema = z.looseObject({
  orderNo: z.string(),
  orderStatus: z.string(),
});
/** Decoded PLACE_ORDER_ACK data. */
export type PlaceOrderAckData = z.output<typeof placeOrderAckDataSchema>;

const VALIDITIES = new Set(['Day', 'FAK', 'FOK', 'GTD', 'GTC']);
const CONDITIONS = new Set(['UT', 'DT', 'SL', 'OCO', 'TIME', 'HOLD', '']);
const TRIGGERED = new Set(['UT', 'DT', 'SL', 'OCO']);
const PRICE = /^(?:\d+)(?:\.\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const POSITION_SIDES = new Set(['NONE', 'LONG', 'SHORT']);

function rule(field: string, text: string): RequestRuleError {
  return new RequestRuleError(`PLACE_ORDER args.${field}`, text);
}

/**
 * Checks PLACE_ORDER args against every rule of the spec's table. Used by the client before
 * sending and by the paper venue when receiving.
 * @param args - the args as sent (or received)
 * @returns the first broken rule, or undefined when the args are valid
 */
export function placeOrderArgsProblem(args: PlaceOrderArgs): RequestRuleError | undefined {
  if (args.brokerClientId === '') return rule('brokerClientId', 'is required');
  if (args.exchangeCode !== 'US') return rule('exchangeCode', 'must be US');
  if (args.productCode === '') return rule('productCode', 'is required');
  if (args.bsFlag !== 'B' && args.bsFlag !== 'S') return rule('bsFlag', 'must be B or S');
  if (args.orderType !== 'L' && args.orderType !== 'M') return rule('orderType', 'must be L or M');
  if (!PRICE.test(args.price)) return rule('price', 'must be a decimal string');
  if (args.orderType === 'M' && args.price !== '0') return rule('price', 'must be "0" for a market order');
  if (args.orderType === 'L' && Number(args.price) <= 0)
    return rule('price', 'must be positive for a limit order');
  if (!Number.isSafeInteger(args.qty) || args.qty <= 0) return rule('qty', 'must be a positive integer');
  const validity = args.orderValidity ?? 'Day';
  if (!VALIDITIES.has(validity)) return rule('orderValidity', 'must be one of Day, FAK, FOK, GTD, GTC');
  if (validity === 'GTD' && (args.orderExpiryDate === undefined || !DATE.test(args.orderExpiryDate))) {
    return rule('orderExpiryDate', 'is required as YYYY-MM-DD when orderValidity is GTD');
  }
  const condition = args.conditionCode ?? '';
  if (!CONDITIONS.has(condition)) {
    return rule('conditionCode', 'must be one of UT, DT, SL, OCO, TIME, HOLD or empty');
  }
  if (TRIGGERED.has(condition) && (args.triggerPrice === undefined || !PRICE.test(args.triggerPrice))) {
    return rule('triggerPrice', `is required when conditionCode is ${condition}`);
  }
  if (condition === 'OCO' && (args.stopPrice === undefined || !PRICE.test(args.stopPrice))) {
    return rule('stopPrice', 'is required when conditionCode is OCO');
  }
  if (condition === 'TIME' && (args.timeToSend === undefined || !DATE_TIME.test(args.timeToSend))) {
    return rule('timeToSend', 'is required as yyyy-MM-dd HH:mm:ss when conditionCode is TIME');
  }
  if (args.positionSide !== undefined && !POSITION_SIDES.has(args.positionSide)) {
    return rule('positionSide', 'must be NONE, LONG or SHORT');
  }
  return undefined;
}
