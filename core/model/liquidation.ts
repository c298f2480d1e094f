import type { Dec } from './decimal.ts';
import type { OrderSide } from './order.ts';
import type { PositionSide } from './position.ts';

/**
 * The two liquidation event types. The spec says there are two but not their names: these are
 * Keel's names (partial liquidation of some positions, or the whole portfolio).
 */
export const LIQUIDATION_EVENT_TYPES = ['PARTIAL_LIQUIDATION', 'FULL_LIQUIDATION'] as const;

/** One of {@link LIQUIDATION_EVENT_TYPES}. */
export type LiquidationEventType = (typeof LIQUIDATION_EVENT_TYPES)[number];

/**
 * The nine node types a liquidation process passes through. The spec says there are nine but
 * not their names: these are Keel's names, in the order the simulated venue walks them.
 */
export const LIQUIDATION_NODE_TYPES = [
  'TRIGGERED',
  'ORDERS_CANCELLED',
  'ALGO_ORDERS_CANCELLED',
  'LOANS_FROZEN',
  'POSITIONS_TAKEN_OVER',
  'LIQUIDATION_ORDERS_PLACED',
  'LIQUIDATION_ORDERS_FILLED',
  'ADL_EXECUTED',
  'FINISHED',
] as const;
/** A node of the liquidation process. */
export type LiquidationNodeType = (typeof LIQUIDATION_NODE_TYPES)[number];

/** A position as it stood at a liquidation node. */
export interface LiquidationPositionSnapshot {
  readonly sym: string;
  readonly positionSide: PositionSide;
  readonly positionQty: Dec;
  readonly avgPrice: Dec;
  readonly markPrice: Dec;
  readonly liqPrice: Dec;
}

/** One node-level snapshot of a liquidation event (LiquidationEvent channel). */
export interface LiquidationEventRecord {
  readonly liquidationEventId: string;
  readonly portfolioId: string;
  readonly eventType: LiquidationEventType;
  readonly nodeType: LiquidationNodeType;
  readonly equity: Dec;
  readonly maintainMargin: Dec;
  readonly positions: readonly LiquidationPositionSnapshot[];
  readonly timestamp: number;
}

/** An archived liquidation order with its position snapshot (LiquidationPosition channel). */
export interface LiquidationPositionRecord {
  readonly liquidationEventId: string;
  readonly portfolioId: string;
  readonly orderId: string;
  readonly sym: string;
  readonly side: OrderSide;
  readonly quantity: Dec;
  readonly price: Dec;
  readonly liquidationFee: Dec;
  readonly position: LiquidationPositionSnapshot;
  readonly timestamp: number;
}
