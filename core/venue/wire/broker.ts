import { z } from 'zod';
import { decimalText, epochMs, type PageRequest } from './common.ts';

/** A fee group with the symbols that belong to it (the spec's "symbol group information"). */
export const feeGroupWireSchema = z.looseObject({
  groupName: z.string().optional(),
  makerFeeRate: decimalText,
  takerFeeRate: decimalText,
  syms: z.array(z.string()).optional(),
});

/** Fee rate of one portfolio (`GET /api/v1/broker/feeRate`, `/broker/sub/feeRate`, `/broker/subFeeRate`). */
export const feeRateWireSchema = z.looseObject({
  portfolioId: z.string(),
  makerFeeRate: decimalText.optional(),
  takerFeeRate: decimalText.optional(),
  markup: decimalText.optional(),
  groups: z.array(feeGroupWireSchema).optional(),
});
/** A decoded fee rate. */
export type FeeRateWire = z.output<typeof feeRateWireSchema>;

/** Query of `GET /api/v1/broker/feeRate`: up to 20 portfolios (spec). */
export interface FeeRateQuery {
  readonly portfolioIds?: readonly string[];
  readonly syms?: readonly string[];
}

/** The spec's portfolio limit of the fee-rate query. */
export const MAX_FEE_RATE_PORTFOLIOS = 20;

/**
 * Body of set sub-portfolio fee markup (`/api/v1/broker/subFeeRate`). `markup` is in bps with at
 * most two decimals (the spec's precision 0.01 bps).
 */
export interface SetSubFeeRateBody {
  readonly subPortfolioId: string;
  readonly markup: string;
}

/** Query of `GET /api/v1/broker/subFeeRate` (Get Fee Rate of Subportfolio). */
export interface SubFeeRateQuery {
  readonly subPortfolioId: string;
}

/** A collection record (`GET /api/v1/broker/collectionRecord`): sym and feePrice per the spec. */
export const collectionRecordWireSchema = z.looseObject({
  sym: z.string(),
  feePrice: decimalText,
  subPortfolioId: z.string().optional(),
  fee: decimalText.optional(),
  feeCoin: z.string().optional(),
  createAt: epochMs.optional(),
});
/** A decoded collection record. */
export type CollectionRecordWire = z.output<typeof collectionRecordWireSchema>;

/** Query of collection records: subPortfolioId and sym per the spec. */
export interface CollectionRecordQuery extends PageRequest {
  readonly subPortfolioId?: string;
  readonly sym?: string;
}
