import {
  type Account,
  type AlgoOrder,
  type AlgoOrderState,
  type Asset,
  type ExecType,
  type Execution,
  LIQUIDATION_NODE_TYPES,
  type LiquidationEventRecord,
  type LiquidationNodeType,
  type LiquidationPositionRecord,
  type LiquidationPositionSnapshot,
  type Position,
  parseDecimal,
} from '../../model/index.ts';
import type { AccountWire, AssetWire } from '../wire/account.ts';
import type { AlgoOrderWire } from '../wire/algo.ts';
import type { ExecutionWire } from '../wire/execution.ts';
import type { LiquidationEventWire, LiquidationPositionWire } from '../wire/liquidation.ts';
import type { PositionWire } from '../wire/position.ts';
import { decOrZero } from './order-mapping.ts';

/**
 * The model's execType of a wire execution. TAKER / MAKER per public venue docs (any case); any
 * other text is Keel's choice: TAKER (a liquidation or ADL fill is forced, it rests on no book),
 * with the venue's text kept in `venueExecType` so nothing is lost.
 * @param text - the wire execType
 * @returns execType, and venueExecType when the text is not MAKER or TAKER
 */
function execTypeFromWire(text: string): { execType: ExecType; venueExecType?: string } {
  const upper = text.toUpperCase();
  if (upper === 'MAKER' || upper === 'TAKER') return { execType: upper };
  return { execType: 'TAKER', venueExecType: text };
}

/**
 * Maps a wire execution to the model.
 * @param wire - from REST executions or the Trades channel
 * @returns the execution; fee falls back to tradingFee, timestamp to createAt, positionSide to
 *   NONE: the venue's executions carry none (the spec gives one to orders and positions only), so
 *   the kernel and the session put a fill that says NONE on the leg of the order it names
 *   (`fillOnOrderLeg`)
 */
export function executionFromWire(wire: ExecutionWire): Execution {
  return {
    transactionId: wire.transactionId,
    portfolioId: wire.portfolioId ?? '',
    orderId: wire.orderId,
    clientOrderId: wire.clientOrderId ?? '',
    sym: wire.sym,
    side: wire.side,
    positionSide: wire.positionSide ?? 'NONE',
    quantity: parseDecimal(wire.quantity, 'quantity'),
    price: parseDecimal(wire.price, 'price'),
    fee: decOrZero(wire.fee ?? wire.tradingFee, 'fee'),
    feeCoin: wire.feeCoin ?? wire.tradingFeeCoin ?? '',
    rebate: decOrZero(wire.rebate, 'rebate'),
    rpnl: decOrZero(wire.rpnl, 'rpnl'),
    ...execTypeFromWire(wire.execType),
    timestamp: wire.timestamp ?? wire.createAt ?? 0,
  };
}

/**
 * Maps a wire position to the model. Its ADL rank is the one the position states (Keel's paper
 * venue does), else 0 = unknown: a live venue's ranks come from GET /api/v1/adl/rank.
 * @param wire - from REST or the Positions channel
 * @returns the position
 */
export function positionFromWire(wire: PositionWire): Position {
  return {
    positionId: wire.positionId,
    portfolioId: wire.portfolioId ?? '',
    sym: wire.sym,
    positionSide: wire.positionSide ?? 'NONE',
    positionQty: parseDecimal(wire.positionQty, 'positionQty'),
    avgPrice: decOrZero(wire.avgPrice, 'avgPrice'),
    markPrice: decOrZero(wire.markPrice, 'markPrice'),
    positionValue: decOrZero(wire.positionValue, 'positionValue'),
    positionMargin: decOrZero(wire.positionMargin, 'positionMargin'),
    positionMM: decOrZero(wire.positionMM, 'positionMM'),
    unrealizedPNL: decOrZero(wire.unrealizedPNL, 'unrealizedPNL'),
    leverage: decOrZero(wire.leverage, 'leverage'),
    liqPrice: decOrZero(wire.liqPrice, 'liqPrice'),
    adlRank: wire.adlRank ?? 0,
    createAt: wire.createAt ?? 0,
    updateAt: wire.updateAt ?? wire.createAt ?? 0,
  };
}

/**
 * Maps a wire asset to the model; the five loan fields only when present (loan > 0).
 * @param wire - from the Assets channel or a REST snapshot
 * @returns the asset
 */
export function assetFromWire(wire: AssetWire): Asset {
  const loanFields =
    wire.loan === undefined
      ? {}
      : {
          loan: parseDecimal(wire.loan, 'loan'),
          loanValue: decOrZero(wire.loanValue, 'loanValue'),
          netEquity: decOrZero(wire.netEquity, 'netEquity'),
          netEquityValue: decOrZero(wire.netEquityValue, 'netEquityValue'),
          netMarginValue: decOrZero(wire.netMarginValue, 'netMarginValue'),
        };
  return {
    coin: wire.coin,
    balance: parseDecimal(wire.balance, 'balance'),
    available: decOrZero(wire.available ?? wire.balance, 'available'),
    frozen: decOrZero(wire.frozen, 'frozen'),
    equity: decOrZero(wire.equity ?? wire.balance, 'equity'),
    borrow: decOrZero(wire.borrow, 'borrow'),
    upnl: decOrZero(wire.upnl, 'upnl'),
    ...loanFields,
  };
}

/**
 * Maps a wire trading account to the model.
 * @param wire - from GET /api/v1/trading/account or the Accounts channel
 * @returns the account (positionMode NET when absent)
 */
export function accountFromWire(wire: AccountWire): Account {
  return {
    portfolioId: wire.portfolioId,
    equity: decOrZero(wire.equity, 'equity'),
    availableMargin: decOrZero(wire.availableMargin, 'availableMargin'),
    maintainMargin: decOrZero(wire.maintainMargin, 'maintainMargin'),
    riskRatio: decOrZero(wire.riskRatio, 'riskRatio'),
    accountStatus: wire.accountStatus,
    positionMode: wire.positionMode ?? 'NET',
  };
}

const ALGO_STATES = new Set<string>(['NEW', 'TRIGGERED', 'CANCELLED', 'FAILED']);

/**
 * Whether a wire algo order state is one Keel knows. Neither the spec nor the public venue notes
 * list the algo order states: NEW, TRIGGERED, CANCELLED and FAILED are Keel's (its simulated and
 * paper venues' own).
 * @param state - the wire's algoOrderState
 * @returns whether it is one of Keel's algo order states
 */
export function isKnownAlgoOrderState(state: string): boolean {
  return ALGO_STATES.has(state);
}

/**
 * Maps a wire algo order to the model. Unknown state, type or condition values are kept out of
 * the model's unions by falling back (state NEW, type TRIGGER, condition GTE): right for an algo
 * order the venue lists open or has just accepted; a lookup of one it no longer lists reads an
 * unknown state otherwise ({@link isKnownAlgoOrderState}).
 * @param wire - from the algo endpoints
 * @returns the algo order
 */
export function algoOrderFromWire(wire: AlgoOrderWire): AlgoOrder {
  return {
    algoOrderId: wire.algoOrderId,
    clientAlgoOrderId: wire.clientAlgoOrderId ?? '',
    portfolioId: wire.portfolioId ?? '',
    sym: wire.sym,
    side: wire.side,
    algoOrderType: wire.algoOrderType === 'TP_SL' ? 'TP_SL' : 'TRIGGER',
    conditionType: wire.conditionType === 'LTE' ? 'LTE' : 'GTE',
    triggerType: wire.triggerType ?? 'MarkPrice',
    triggerPrice: parseDecimal(wire.triggerPrice, 'triggerPrice'),
    price: decOrZero(wire.price, 'price'),
    qty: parseDecimal(wire.qty, 'qty'),
    reduceOnly: wire.reduceOnly ?? false,
    positionSide: wire.positionSide ?? 'NONE',
    state: (ALGO_STATES.has(wire.algoOrderState) ? wire.algoOrderState : 'NEW') as AlgoOrderState,
    ...(wire.orderId === undefined ? {} : { orderId: wire.orderId }),
    ...(wire.attachedOrderId === undefined ? {} : { attachedOrderId: wire.attachedOrderId }),
    createAt: wire.createAt ?? 0,
    updateAt: wire.updateAt ?? wire.createAt ?? 0,
  };
}

function snapshotFromWire(wire: LiquidationPositionWire['position']): LiquidationPositionSnapshot {
  return {
    sym: wire.sym,
    positionSide: wire.positionSide ?? 'NONE',
    positionQty: parseDecimal(wire.positionQty, 'positionQty'),
    avgPrice: decOrZero(wire.avgPrice, 'avgPrice'),
    markPrice: decOrZero(wire.markPrice, 'markPrice'),
    liqPrice: decOrZero(wire.liqPrice, 'liqPrice'),
  };
}

const NODE_TYPES = new Set<string>(LIQUIDATION_NODE_TYPES);

/**
 * Maps a liquidation node snapshot to the model.
 * @param wire - from the LiquidationEvent channel or the liquidationEvent endpoint
 * @returns the record, or undefined when the event or node type is not one Keel knows
 */
export function liquidationEventFromWire(wire: LiquidationEventWire): LiquidationEventRecord | undefined {
  if (wire.eventType !== 'PARTIAL_LIQUIDATION' && wire.eventType !== 'FULL_LIQUIDATION') return undefined;
  if (!NODE_TYPES.has(wire.nodeType)) return undefined;
  return {
    liquidationEventId: wire.liquidationEventId,
    portfolioId: wire.portfolioId ?? '',
    eventType: wire.eventType,
    nodeType: wire.nodeType as LiquidationNodeType,
    equity: decOrZero(wire.equity, 'equity'),
    maintainMargin: decOrZero(wire.maintainMargin, 'maintainMargin'),
    positions: (wire.positions ?? []).map(snapshotFromWire),
    timestamp: wire.timestamp,
  };
}

/**
 * Maps an archived liquidation order to the model.
 * @param wire - from the LiquidationPosition or LiquidationPositionByUser channel
 * @returns the record
 */
export function liquidationPositionFromWire(wire: LiquidationPositionWire): LiquidationPositionRecord {
  return {
    liquidationEventId: wire.liquidationEventId,
    portfolioId: wire.portfolioId ?? '',
    orderId: wire.orderId,
    sym: wire.sym,
    side: wire.side,
    quantity: parseDecimal(wire.quantity, 'quantity'),
    price: parseDecimal(wire.price, 'price'),
    liquidationFee: decOrZero(wire.liquidationFee, 'liquidationFee'),
    position: snapshotFromWire(wire.position),
    timestamp: wire.timestamp,
  };
}
