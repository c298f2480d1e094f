import type { Dec } from './decimal.ts';

/** The position modes of the spec. */
export const POSITION_MODES = ['NET', 'BOTH'] as const;

/** Portfolio position mode: one net position per sym, or a long and a short leg (hedge). */
export type PositionMode = (typeof POSITION_MODES)[number];

/** The position sides of the spec. */
export const POSITION_SIDES = ['NONE', 'LONG', 'SHORT'] as const;

/** Position side: NONE in NET mode, LONG or SHORT in BOTH mode. */
export type PositionSide = (typeof POSITION_SIDES)[number];

/** A position as the venue reports it; `positionQty` is signed in NET mode. */
export interface Position {
  readonly positionId: string;
  readonly portfolioId: string;
  readonly sym: string;
  readonly positionSide: PositionSide;
  readonly positionQty: Dec;
  readonly avgPrice: Dec;
  readonly markPrice: Dec;
  readonly positionValue: Dec;
  readonly positionMargin: Dec;
  readonly positionMM: Dec;
  readonly unrealizedPNL: Dec;
  readonly leverage: Dec;
  readonly liqPrice: Dec;
  /** ADL rank 1 (lowest) to 5 (first to be deleveraged); 0 when unknown. */
  readonly adlRank: number;
  readonly createAt: number;
  readonly updateAt: number;
}

/**
 * The state key of a position: sym plus side.
 * @param sym - the symbol
 * @param positionSide - NONE, LONG or SHORT
 * @returns `sym|side`
 */
export function positionKey(sym: string, positionSide: PositionSide): string {
  return `${sym}|${positionSide}`;
}

/**
 * A position report's quantity signed: long > 0, short < 0 (a SHORT leg reported with a positive
 * size is negated).
 * @param position - the venue's position report
 * @returns the signed quantity
 */
export function signedPositionQty(position: Pick<Position, 'positionQty' | 'positionSide'>): Dec {
  return position.positionSide === 'SHORT' ? position.positionQty.abs().neg() : position.positionQty;
}
