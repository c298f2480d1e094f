import { z } from 'zod';
import { decimalText, epochMs, positionSideText, sideText } from './common.ts';

/** A position snapshot inside a liquidation record; field names Keel's choice (spec: not shown). */
export const liquidationPositionSnapshotWireSchema = z.looseObject({
  sym: z.string(),
  positionSide: positionSideText.optional(),
  positionQty: decimalText,
  avgPrice: decimalText.optional(),
  markPrice: decimalText.optional(),
  liqPrice: decimalText.optional(),
});

/**
 * A node-level snapshot of a liquidation event (LiquidationEvent channel and
 * `GET /api/v1/trading/liquidationEvent`). liquidationEventId ties the three channels together
 * (per public venue docs); the other names are Keel's choice.
 */
export const liquidationEventWireSchema = z.looseObject({
  liquidationEventId: z.string(),
  portfolioId: z.string().optional(),
  eventType: z.string(),
  nodeType: z.string(),
  equity: decimalText.optional(),
  maintainMargin: decimalText.optional(),
  positions: z.array(liquidationPositionSnapshotWireSchema).optional(),
  timestamp: epochMs,
});
/** A decoded liquidation node snapshot. */
export type LiquidationEventWire = z.output<typeof liquidationEventWireSchema>;

/** Reply of `GET /api/v1/trading/liquidationEvent`: the complete event, its nodes in order. */
export const liquidationEventDetailWireSchema = z.looseObject({
  liquidationEventId: z.string(),
  eventType: z.string(),
  nodes: z.array(liquidationEventWireSchema),
});
/** A decoded complete liquidation event. */
export type LiquidationEventDetailWire = z.output<typeof liquidationEventDetailWireSchema>;

/** An archived liquidation order with its position snapshot (LiquidationPosition and ...ByUser channels). */
export const liquidationPositionWireSchema = z.looseObject({
  liquidationEventId: z.string(),
  portfolioId: z.string().optional(),
  orderId: z.string(),
  sym: z.string(),
  side: sideText,
  quantity: decimalText,
  price: decimalText,
  liquidationFee: decimalText.optional(),
  position: liquidationPositionSnapshotWireSchema,
  timestamp: epochMs,
});
/** A decoded liquidation position record. */
export type LiquidationPositionWire = z.output<typeof liquidationPositionWireSchema>;
