import type { Dec } from '../../../core/model/index.ts';

/**
 * The kinds of cash flow that move an account's balance outside its fills, in the venue's
 * statement types (per public venue docs): perpetual funding, margin-loan interest, and the
 * loans' principal (BORROW credits the balance, REPAY debits it; neither is income or expense,
 * as the loan is owed back, so no metric sums them with the others). A liquidation's fee is a
 * fill's fee (it is in the fills and in `feesPaid`), so it is a {@link LiquidationRecord}, not a
 * cash flow here.
 */
export const CASH_FLOW_KINDS = ['FUNDING_FEE', 'DEDUCT_INTEREST', 'BORROW', 'REPAY'] as const;

/** A kind of {@link CashFlowRecord}. */
export type CashFlowKind = (typeof CASH_FLOW_KINDS)[number];

/** One balance change that is not a fill: a funding settlement, an interest charge, a borrow or a repay. */
export interface CashFlowRecord {
  /** When it was booked, epoch ms (a funding settlement at its funding time). */
  readonly ts: number;
  readonly kind: CashFlowKind;
  /** The coin whose balance moved (the instrument's settle asset, the loan's coin). */
  readonly asset: string;
  /** Signed: negative = paid by the account, positive = received. */
  readonly amount: Dec;
  /** The perpetual funding was settled on; absent for loan flows. */
  readonly sym?: string;
}

/** One liquidation order of a liquidation event, as it filled. */
export interface LiquidationFillRecord {
  readonly orderId: string;
  readonly sym: string;
  readonly side: 'BUY' | 'SELL';
  readonly quantity: Dec;
  /** Fill price (the mark price on the simulated venue). */
  readonly price: Dec;
  /** The liquidation fee the venue charged instead of a trading fee, in the settle asset. */
  readonly fee: Dec;
}

/** A liquidation the account went through: the venue closed positions because equity fell below maintenance margin. */
export interface LiquidationRecord {
  readonly liquidationEventId: string;
  /** `PARTIAL_LIQUIDATION` or `FULL_LIQUIDATION` (Keel's names). */
  readonly eventType: string;
  /** When it was triggered, epoch ms. */
  readonly ts: number;
  /** Equity when it was triggered, in the account currency; absent when the venue sent no node of it. */
  readonly equityBefore?: Dec;
  /** Maintenance margin when it was triggered; absent when the venue sent no node of it. */
  readonly maintenanceMargin?: Dec;
  /** Equity at its last node (negative = the account owes more than it holds); absent without nodes. */
  readonly equityAfter?: Dec;
  /** The liquidation orders' fills. */
  readonly fills: readonly LiquidationFillRecord[];
}
