import { z } from 'zod';
import { IN_FLIGHT_ORDER_STATES, VENUE_ORDER_STATES } from '../../../core/model/index.ts';
import type { BacktestMetrics } from '../metrics/backtest-metrics.ts';
import type { SymBreakdown } from '../metrics/sym-breakdown.ts';
import type { OpenTrade, RoundTripTrade } from '../trades/round-trip-trade.ts';
import { algoOrderRecordSchema, denialRecordSchema, trailingStopRecordSchema } from './activity-schemas.ts';
import type { BacktestMeta, BacktestResult, JsonValue } from './backtest-result.ts';
import { CASH_FLOW_KINDS, type CashFlowRecord, type LiquidationRecord } from './cash-flow-record.ts';
import {
  decimalField as decimal,
  positionSideField as positionSide,
  sideField as side,
} from './field-schemas.ts';
import type { FillRecord, OrderRecord } from './owned-records.ts';

/**
 * Zod schemas of the result file, so `readResult` rebuilds Decimals from their strings and
 * tells exactly which field of a hand-edited or truncated file is wrong.
 */

const direction = z.enum(['LONG', 'SHORT']);
const nullableNumber = z.number().nullable();
const json = z.json() as unknown as z.ZodType<JsonValue>;
const jsonRecord = z.record(z.string(), json);

const tpSl = z.object({
  triggerPrice: decimal,
  triggerType: z.enum(['MarkPrice', 'LastPrice']),
  price: decimal,
});

/** The schema of one order in a result file (`orders[i]`). */
export const orderRecordSchema: z.ZodType<OrderRecord, unknown> = z.object({
  orderId: z.string(),
  clientOrderId: z.string(),
  portfolioId: z.string(),
  // Absent in result files written before Keel recorded it, and for orders nobody in the run placed.
  strategyId: z.string().optional(),
  sym: z.string(),
  side,
  orderType: z.enum(['LIMIT', 'MARKET']),
  timeInForce: z.enum(['GTC', 'IOC', 'FOK', 'GTX', 'DAY', 'GTD', 'FAK']),
  orderState: z.enum([...VENUE_ORDER_STATES, ...IN_FLIGHT_ORDER_STATES]),
  orderQty: decimal,
  limitPrice: decimal,
  executedQty: decimal,
  executedAmount: decimal,
  executedAvgPrice: decimal,
  fee: decimal,
  feeCoin: z.string(),
  reduceOnly: z.boolean(),
  positionSide,
  tp: tpSl.optional(),
  sl: tpSl.optional(),
  condition: z
    .object({
      code: z.enum(['UT', 'DT', 'SL', 'OCO', 'TIME', 'HOLD']),
      triggerPrice: decimal.optional(),
      stopPrice: decimal.optional(),
      timeToSend: z.string().optional(),
    })
    .optional(),
  expiryDate: z.string().optional(),
  action: z
    .enum(['PLACE', 'CANCEL_PENDING', 'CANCEL_COMPLETED', 'AMEND_COMPLETED', 'FILL', 'EXPIRE', 'REJECT'])
    .optional(),
  actionMsg: z.string().optional(),
  amendType: z.string().optional(),
  cancelType: z.string().optional(),
  reason: z.string().optional(),
  algoOrderId: z.string().optional(),
  createAt: z.number(),
  updateAt: z.number(),
});

/** The schema of one fill in a result file (`fills[i]`). */
export const executionRecordSchema: z.ZodType<FillRecord, unknown> = z.object({
  transactionId: z.string(),
  portfolioId: z.string(),
  orderId: z.string(),
  clientOrderId: z.string(),
  strategyId: z.string().optional(),
  sym: z.string(),
  side,
  positionSide,
  quantity: decimal,
  price: decimal,
  fee: decimal,
  feeCoin: z.string(),
  rebate: decimal,
  rpnl: decimal,
  execType: z.enum(['MAKER', 'TAKER']),
  timestamp: z.number(),
});

/** The schema of one closed round-trip trade in a result file (`trades[i]`). */
export const roundTripTradeSchema: z.ZodType<RoundTripTrade, unknown> = z.object({
  sym: z.string(),
  positionSide,
  direction,
  qty: decimal,
  entryTs: z.number(),
  exitTs: z.number(),
  entryPrice: decimal,
  exitPrice: decimal,
  entryOrderId: z.string(),
  exitOrderId: z.string(),
  entryStrategyId: z.string().optional(),
  exitStrategyId: z.string().optional(),
  grossPnl: decimal,
  fees: decimal,
  pnl: decimal,
  returnFraction: z.number(),
  durationMs: z.number(),
});

const openTrade: z.ZodType<OpenTrade, unknown> = z.object({
  sym: z.string(),
  positionSide,
  direction,
  qty: decimal,
  entryTs: z.number(),
  entryPrice: decimal,
  entryOrderId: z.string(),
  entryStrategyId: z.string().optional(),
  entryFees: decimal,
});

const modelDescription = z.object({
  name: z.string(),
  description: z.string(),
  params: jsonRecord.optional(),
});

const meta: z.ZodType<BacktestMeta, unknown> = z.object({
  // Absent in result files written before Keel 0.2.0.
  keel: z.string().optional(),
  title: z.string(),
  strategies: z.array(z.object({ id: z.string(), name: z.string(), params: jsonRecord })),
  recordings: z.array(
    z.object({ path: z.string(), synthetic: z.boolean(), description: z.string().optional() }),
  ),
  fillModel: modelDescription,
  latencyModel: modelDescription,
  feeModel: modelDescription,
  synthetic: z.boolean(),
  runConfig: jsonRecord,
  assumptions: z.array(z.string()),
  warnings: z.array(z.string()).optional(),
});

const faultRecord = z.object({
  strategyId: z.string(),
  hook: z.string(),
  ts: z.number(),
  error: z.string(),
  at: z.string().optional(),
  how: z.enum(['returned', 'emitted']).optional(),
  file: z.string().optional(),
});

const cashFlow: z.ZodType<CashFlowRecord, unknown> = z.object({
  ts: z.number(),
  kind: z.enum(CASH_FLOW_KINDS),
  asset: z.string(),
  amount: decimal,
  sym: z.string().optional(),
});

const liquidation: z.ZodType<LiquidationRecord, unknown> = z.object({
  liquidationEventId: z.string(),
  eventType: z.string(),
  ts: z.number(),
  equityBefore: decimal.optional(),
  maintenanceMargin: decimal.optional(),
  equityAfter: decimal.optional(),
  fills: z.array(
    z.object({
      orderId: z.string(),
      sym: z.string(),
      side,
      quantity: decimal,
      price: decimal,
      fee: decimal,
    }),
  ),
});

const metrics: z.ZodType<BacktestMetrics, unknown> = z.object({
  start: z.number(),
  end: z.number(),
  durationMs: z.number(),
  exposureTime: z.number(),
  equityStart: decimal,
  equityFinal: decimal,
  equityPeak: decimal,
  totalReturn: nullableNumber,
  buyAndHoldReturn: nullableNumber,
  // Absent in result files written before Keel named the buy & hold benchmark.
  buyAndHoldBenchmark: z
    .object({
      syms: z.array(z.string()),
      basis: z.enum(['traded', 'named', 'instruments', 'recording']),
    })
    .optional(),
  annualizedReturn: nullableNumber,
  annualizedVolatility: nullableNumber,
  cagr: nullableNumber,
  sharpe: nullableNumber,
  sortino: nullableNumber,
  calmar: nullableNumber,
  maxDrawdown: z.number(),
  // Absent when equity never fell, and in result files written before Keel recorded it.
  maxDrawdownTs: z.number().optional(),
  avgDrawdown: z.number(),
  maxDrawdownDurationMs: z.number(),
  avgDrawdownDurationMs: z.number(),
  tradeCount: z.number(),
  winRate: nullableNumber,
  bestTrade: nullableNumber,
  worstTrade: nullableNumber,
  avgTrade: nullableNumber,
  maxTradeDurationMs: nullableNumber,
  avgTradeDurationMs: nullableNumber,
  profitFactor: nullableNumber,
  expectancy: nullableNumber,
  sqn: nullableNumber,
  kelly: nullableNumber,
  feesPaid: decimal,
  turnover: decimal,
  turnoverRatio: nullableNumber,
  // Absent in result files written before Keel recorded cash flows and liquidations.
  fundingPaid: decimal.optional(),
  interestPaid: decimal.optional(),
  liquidationCount: z.number().optional(),
  liquidationFills: z.number().optional(),
  liquidationFees: decimal.optional(),
  firstLiquidationTs: nullableNumber.optional(),
  annualization: z.object({
    period: z.enum(['day', 'sample']),
    periodsPerYear: nullableNumber,
    tradingDaysPerYear: z.number(),
    riskFreeRate: z.number(),
    tradingHours: z.enum(['24/7', 'us-equity']).optional(),
    ruinTs: z.number().optional(),
  }),
});

const symFigures = {
  trades: z.number(),
  winRate: nullableNumber,
  netPnl: decimal,
  fees: decimal,
  returnContribution: nullableNumber,
  exposureTime: z.number(),
};

const symBreakdown: z.ZodType<SymBreakdown, unknown> = z.object({
  syms: z.array(z.object({ sym: z.string(), ...symFigures })),
  total: z.object(symFigures),
});

const pricePoint = z.object({ ts: z.number(), price: z.number() });

// low and high: a bucket's bar range, absent on quote or trade data and in older result files.
const sampledPricePoint = pricePoint.extend({ low: z.number().optional(), high: z.number().optional() });

/** The schema of a whole result file (`result.json`). */
export const backtestResultSchema: z.ZodType<BacktestResult, unknown> = z.object({
  meta,
  orders: z.array(orderRecordSchema),
  fills: z.array(executionRecordSchema),
  trades: z.array(roundTripTradeSchema),
  openTrades: z.array(openTrade),
  equityCurve: z.array(z.object({ ts: z.number(), equity: decimal })),
  prices: z.array(
    z.object({
      sym: z.string(),
      points: z.array(sampledPricePoint),
      bucketMs: z.number().optional(),
      barMs: z.number().optional(),
      // Absent in result files written before Keel recorded every price's extremes.
      low: pricePoint.optional(),
      high: pricePoint.optional(),
    }),
  ),
  metrics,
  // Absent in result files written before Keel broke results down by sym, and in session results.
  symBreakdown: symBreakdown.optional(),
  cashFlows: z.array(cashFlow).optional(),
  liquidations: z.array(liquidation).optional(),
  faults: z.array(faultRecord).optional(),
  // Absent in result files written before Keel recorded algo orders and denied intents.
  algoOrders: z.array(algoOrderRecordSchema).optional(),
  denials: z.array(denialRecordSchema).optional(),
  // Absent when the run placed no emulated trailing stop.
  trailingStops: z.array(trailingStopRecordSchema).optional(),
});

/**
 * Checks parsed JSON against {@link backtestResultSchema}.
 * @param data - the parsed JSON
 * @param source - where it came from, for the error message
 * @returns the result with Decimals
 * @throws Error naming the source and the first five wrong fields when the data is not a result
 */
export function backtestResultOf(data: unknown, source: string): BacktestResult {
  const parsed = backtestResultSchema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
      .join('; ');
    throw new Error(`${source} is not a Keel backtest result: ${issues}`);
  }
  return parsed.data;
}
