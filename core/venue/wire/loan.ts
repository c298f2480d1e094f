import { z } from 'zod';
import { decimalText, epochMs, type PageRequest } from './common.ts';

/** `GET /api/v1/trading/loan/pool` reply: maximum loanable quantity of an asset on an exchange. */
export const loanPoolWireSchema = z.looseObject({
  exchange: z.string(),
  asset: z.string(),
  maxLoanable: decimalText,
});
/** A decoded loan pool entry. */
export type LoanPoolWire = z.output<typeof loanPoolWireSchema>;

/** Required query of the loan pool (spec). */
export interface LoanPoolQuery {
  readonly exchange: string;
  readonly asset: string;
}

/** Loan info entry (`/trading/loan/info_detail` and legacy `/trading/loan/info`). */
export const loanInfoWireSchema = z.looseObject({
  coin: z.string(),
  exchange: z.string().optional(),
  loan: decimalText,
  interest: decimalText.optional(),
  annualRate: decimalText.optional(),
  updateAt: epochMs.optional(),
});
/** A decoded loan info entry. */
export type LoanInfoWire = z.output<typeof loanInfoWireSchema>;

/** Coin discount entry (`/trading/coin/discount_detail` and legacy `/trading/coin/discount`). */
export const coinDiscountWireSchema = z.looseObject({
  coin: z.string(),
  discountRate: decimalText,
});
/** A decoded coin discount entry. */
export type CoinDiscountWire = z.output<typeof coinDiscountWireSchema>;

/** User interest entry (`/interest/user_detail` and legacy `/interest/user`). */
export const userInterestWireSchema = z.looseObject({
  coin: z.string(),
  interest: decimalText,
  annualRate: decimalText.optional(),
  createAt: epochMs.optional(),
});
/** A decoded user interest entry. */
export type UserInterestWire = z.output<typeof userInterestWireSchema>;

/** Per-currency loan balance on one exchange (margin loan info). */
const marginLoanBalanceWireSchema = z.looseObject({
  exchange: z.string(),
  coin: z.string(),
  principal: decimalText,
  interest: decimalText.optional(),
});

/** `GET .../marginLoan/loan/info`: borrowing status, LTV risk, net margin and loan balances (spec). */
export const marginLoanInfoWireSchema = z.looseObject({
  ltv: decimalText,
  riskLevel: z.string().optional(),
  totalLoanValue: decimalText.optional(),
  netMarginValue: decimalText.optional(),
  loans: z.array(marginLoanBalanceWireSchema).optional(),
});
/** A decoded margin loan info. */
export type MarginLoanInfoWire = z.output<typeof marginLoanInfoWireSchema>;

/** `GET .../marginLoan/loan/config` entry: leverage, max quota, maintenance margin, annual rate (spec). */
export const marginLoanConfigWireSchema = z.looseObject({
  coin: z.string(),
  leverage: decimalText.optional(),
  maxBorrowQuota: decimalText.optional(),
  maintenanceMarginRate: decimalText.optional(),
  annualInterestRate: decimalText,
});
/** A decoded margin loan config entry. */
export type MarginLoanConfigWire = z.output<typeof marginLoanConfigWireSchema>;

/** `GET .../marginLoan/loan/maxLoan` entry: per-exchange maximum borrowable amount (spec). */
export const marginMaxLoanWireSchema = z.looseObject({
  coin: z.string(),
  exchange: z.string(),
  maxLoan: decimalText,
});
/** A decoded max loan entry. */
export type MarginMaxLoanWire = z.output<typeof marginMaxLoanWireSchema>;

/** Body of borrow and repay. */
export interface MarginLoanBody {
  readonly exchange: string;
  readonly coin: string;
  readonly amount: string;
  readonly clientId?: string;
}

/** Reply data of borrow / repay: the loan order. */
export const marginLoanOrderWireSchema = z.looseObject({
  loanOrderId: z.string(),
  type: z.string(),
  exchange: z.string().optional(),
  coin: z.string(),
  amount: decimalText,
  state: z.string().optional(),
  /** The caller reference sent with borrow / repay, when the venue echoes it (Keel's choice to read it). */
  clientId: z.string().optional(),
  createAt: epochMs.optional(),
});
/** A decoded loan order. */
export type MarginLoanOrderWire = z.output<typeof marginLoanOrderWireSchema>;

/** `GET .../marginLoan/loan/statement` entry: borrow, repay, interest and liquidation-fee settlement. */
export const marginLoanStatementWireSchema = z.looseObject({
  /** The entry's id, for deduping repeated fetches (Keel's choice of field name, as on the trading statement). */
  id: z.union([z.string(), z.number().transform(String)]).optional(),
  type: z.string(),
  coin: z.string(),
  amount: decimalText,
  exchange: z.string().optional(),
  createAt: epochMs.optional(),
});
/** A decoded loan statement entry. */
export type MarginLoanStatementWire = z.output<typeof marginLoanStatementWireSchema>;

/** Query of loan orders / statement (up to the last 90 days, spec). */
export interface MarginLoanHistoryQuery extends PageRequest {
  readonly coin?: string;
}
