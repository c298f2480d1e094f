import { z } from 'zod';
import { decimalText, epochMs, type PageRequest, positionModeText } from './common.ts';

/** Body of Change Account PositionMode. */
export interface SetPositionModeBody {
  readonly positionMode: 'NET' | 'BOTH';
}

/**
 * An asset balance (Assets channel, account snapshots). Per the spec upnl; loan, loanValue,
 * netEquity, netEquityValue and netMarginValue only when loan > 0.
 */
export const assetWireSchema = z.looseObject({
  coin: z.string(),
  balance: decimalText,
  available: decimalText.optional(),
  frozen: decimalText.optional(),
  equity: decimalText.optional(),
  borrow: decimalText.optional(),
  upnl: decimalText.optional(),
  loan: decimalText.optional(),
  loanValue: decimalText.optional(),
  netEquity: decimalText.optional(),
  netEquityValue: decimalText.optional(),
  netMarginValue: decimalText.optional(),
});
/** A decoded asset balance. */
export type AssetWire = z.output<typeof assetWireSchema>;

/** The trading account (`GET /api/v1/trading/account`, Accounts channel); fields per public venue docs, positionMode per the spec. */
export const accountWireSchema = z.looseObject({
  portfolioId: z.string(),
  equity: decimalText.optional(),
  availableMargin: decimalText.optional(),
  maintainMargin: decimalText.optional(),
  riskRatio: decimalText.optional(),
  accountStatus: z.enum(['NORMAL', 'MARGIN_CALL', 'LIQUIDATION']),
  positionMode: positionModeText.optional(),
  /** The portfolio's assets; Keel's choice (not shown): the account reply carries them, as the Assets channel writes them. */
  assets: z.array(assetWireSchema).optional(),
});
/** A decoded trading account. */
export type AccountWire = z.output<typeof accountWireSchema>;

/** Account currency info (`GET /api/v1/asset/getAccountCurrencyInfo`): withdrawAvailable per the spec. */
export const accountCurrencyInfoWireSchema = z.looseObject({
  coin: z.string(),
  withdrawAvailable: decimalText,
});
/** A decoded account currency info entry. */
export type AccountCurrencyInfoWire = z.output<typeof accountCurrencyInfoWireSchema>;

/** Deposit / withdraw / transfer currency info (`GET /api/v1/asset/currencies`), with estimated network fee. */
export const currencyWireSchema = z.looseObject({
  coin: z.string(),
  network: z.string().optional(),
  depositEnable: z.boolean().optional(),
  withdrawEnable: z.boolean().optional(),
  transferEnable: z.boolean().optional(),
  withdrawFee: decimalText.optional(),
  transferFee: decimalText.optional(),
});
/** A decoded currency entry. */
export type CurrencyWire = z.output<typeof currencyWireSchema>;

/** A trade account of `GET /api/v1/tradeAccount/list`. */
export const tradeAccountWireSchema = z.looseObject({
  portfolioId: z.string(),
  name: z.string().optional(),
  exchangeType: z.string().optional(),
  positionMode: positionModeText.optional(),
});
/** A decoded trade account. */
export type TradeAccountWire = z.output<typeof tradeAccountWireSchema>;

/** System upgrade event status (`GET /api/v1/system/status`); fields not shown, Keel's choice. */
export const systemStatusWireSchema = z.looseObject({
  status: z.string(),
  startTime: epochMs.optional(),
  endTime: epochMs.optional(),
  message: z.string().optional(),
  /** Keel's paper venue only: its market data is SYNTHETIC (generated, not a real market). */
  syntheticFeed: z.boolean().optional(),
});
/** A decoded system status. */
export type SystemStatusWire = z.output<typeof systemStatusWireSchema>;

/** Symbol info (`GET /api/v1/trading/sym/info`): fields per public venue docs, defaultLeverage per the spec. */
export const symInfoWireSchema = z.looseObject({
  sym: z.string(),
  state: z.string(),
  pricePrecision: z.number().int(),
  qtyPrecision: z.number().int(),
  tickSize: decimalText,
  lotSize: decimalText,
  minSize: decimalText.optional(),
  minNotional: decimalText.optional(),
  maxLimitSize: decimalText.optional(),
  maxMarketSize: decimalText.optional(),
  maxNumOrders: z.number().int().optional(),
  contractSize: decimalText.optional(),
  defaultLeverage: decimalText.optional(),
  liquidationFee: decimalText.optional(),
});
/** A decoded symbol info entry. */
export type SymInfoWire = z.output<typeof symInfoWireSchema>;

/** Statement types (per public venue docs). */
export const STATEMENT_TYPES = ['FUNDING_FEE', 'DEDUCT_INTEREST', 'LIQUIDATION_FEE'] as const;

/** A statement entry (`GET /api/v1/trading/statement`): beforeBorrow, afterBorrow, deltaAmount per the spec. */
export const statementWireSchema = z.looseObject({
  /**
   * The entry's id, which a client dedupes repeated fetches by (Keel's choice of field name: the
   * spec and the public docs name none; a number is read as its digits).
   */
  id: z.union([z.string(), z.number().transform(String)]).optional(),
  type: z.string(),
  coin: z.string().optional(),
  sym: z.string().optional(),
  amount: decimalText.optional(),
  beforeBorrow: decimalText.optional(),
  afterBorrow: decimalText.optional(),
  deltaAmount: decimalText.optional(),
  createAt: epochMs.optional(),
});
/** A decoded statement entry. */
export type StatementWire = z.output<typeof statementWireSchema>;

/** Query of the statement. */
export interface StatementQuery extends PageRequest {
  readonly type?: string;
  readonly coin?: string;
}
