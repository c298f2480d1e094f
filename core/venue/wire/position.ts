import { z } from 'zod';
import {
  decimalText,
  epochMs,
  type PageRequest,
  positionModeText,
  positionSideText,
  sideText,
} from './common.ts';

/**
 * A position of `GET /api/v1/trading/position` and the Positions channel. Field names per public
 * venue docs; the spec adds positionSide and liqPrice (liqPrice was removed in 26 Jan and added
 * back in 26 Apr, so it is optional). `adlRank` is Keel's paper venue's own (the venue serves ranks
 * only through `GET /api/v1/adl/rank`): the rank its sim gave the position as it pushed it.
 */
export const positionWireSchema = z.looseObject({
  positionId: z.string(),
  portfolioId: z.string().optional(),
  sym: z.string(),
  positionSide: positionSideText.optional(),
  positionQty: decimalText,
  avgPrice: decimalText.optional(),
  markPrice: decimalText.optional(),
  positionValue: decimalText.optional(),
  positionMargin: decimalText.optional(),
  positionMM: decimalText.optional(),
  unrealizedPNL: decimalText.optional(),
  leverage: decimalText.optional(),
  liqPrice: decimalText.optional(),
  adlRank: z.number().int().min(0).max(5).optional(),
  createAt: epochMs.optional(),
  updateAt: epochMs.optional(),
});
/** A decoded position. */
export type PositionWire = z.output<typeof positionWireSchema>;

/**
 * Query of `GET /api/v1/trading/position`. The spec says zero-size positions can be filtered out
 * but not the parameter's name: `ignoreZero` is Keel's choice.
 */
export interface PositionsQuery {
  readonly sym?: string;
  readonly ignoreZero?: boolean;
}

/** A historical position (`GET /api/v1/trading/history/position`): positionMode and positionHistorySide per the spec. */
export const positionHistoryWireSchema = z.looseObject({
  sym: z.string(),
  positionMode: positionModeText,
  positionHistorySide: positionSideText,
  positionId: z.string().optional(),
  side: sideText.optional(),
  openAvgPrice: decimalText.optional(),
  closeAvgPrice: decimalText.optional(),
  closedQty: decimalText.optional(),
  realizedPnl: decimalText.optional(),
  createAt: epochMs.optional(),
  updateAt: epochMs.optional(),
});
/** A decoded historical position. */
export type PositionHistoryWire = z.output<typeof positionHistoryWireSchema>;

/** Query of position history. */
export interface PositionHistoryQuery extends PageRequest {
  readonly sym?: string;
}

/** Body of `DELETE /api/v1/trading/position`: one sym, and the side in BOTH mode. */
export interface ClosePositionBody {
  readonly sym: string;
  readonly positionSide?: 'NONE' | 'LONG' | 'SHORT';
}

/** Body of `DELETE /api/v1/trading/positions`: symList, up to 20 (spec). */
export interface ClosePositionsBody {
  readonly symList: readonly string[];
}

/** The spec's symList limit of `DELETE /api/v1/trading/positions`. */
export const MAX_CLOSE_POSITIONS_SYMS = 20;

/** Reply data of the close-position endpoints: not shown; Keel keeps whatever comes. */
export const closePositionReplySchema = z.unknown();

/** One ADL rank entry (`GET /api/v1/adl/rank`): positionId and positionSide tell apart several positions on a sym. */
export const adlRankWireSchema = z.looseObject({
  sym: z.string(),
  positionId: z.string(),
  positionSide: positionSideText,
  adlRank: z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]),
});
/** A decoded ADL rank entry. */
export type AdlRankWire = z.output<typeof adlRankWireSchema>;
