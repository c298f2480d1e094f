import type { Dec } from './decimal.ts';
import type { PositionMode } from './position.ts';

/** Account status (per public venue docs). */
export type AccountStatus = 'NORMAL' | 'MARGIN_CALL' | 'LIQUIDATION';

/** The trading account (portfolio) summary. */
export interface Account {
  readonly portfolioId: string;
  readonly equity: Dec;
  readonly availableMargin: Dec;
  readonly maintainMargin: Dec;
  readonly riskRatio: Dec;
  readonly accountStatus: AccountStatus;
  readonly positionMode: PositionMode;
}

/** One asset (coin) balance of a portfolio. Loan fields are present only when `loan` > 0. */
export interface Asset {
  readonly coin: string;
  readonly balance: Dec;
  readonly available: Dec;
  readonly frozen: Dec;
  readonly equity: Dec;
  readonly borrow: Dec;
  readonly upnl: Dec;
  readonly loan?: Dec;
  readonly loanValue?: Dec;
  readonly netEquity?: Dec;
  readonly netEquityValue?: Dec;
  readonly netMarginValue?: Dec;
}

/** An outstanding margin loan of one coin on one exchange. */
export interface Loan {
  readonly exchange: string;
  readonly coin: string;
  readonly principal: Dec;
  readonly interest: Dec;
  /** Annual interest rate, e.g. 0.08 for 8 %. */
  readonly annualRate: Dec;
  readonly updateAt: number;
}

/** Loan-to-value risk summary of a portfolio's margin loans. */
export interface LoanRisk {
  readonly ltv: Dec;
  readonly totalLoanValue: Dec;
  readonly netMarginValue: Dec;
}
