import { z } from 'zod';
import { D } from '../../core/model/index.ts';
import { decimalValue, positiveDecimal } from './decimal-value.ts';

/**
 * Hours in the interest year of the simulated venue (365 days, Keel's choice, as its accrual
 * uses): an hourly rate h is the annual rate h x 8760, which accrues exactly h per hour.
 */
const HOURS_PER_YEAR = 8760;

/** An `EXCHANGE:COIN` key, as the simulated venue and the loan endpoints pair them. */
const LOAN_ASSET_KEY = /^[A-Z0-9]{1,20}:[A-Z0-9]{1,20}$/;

const rate = decimalValue.refine((value) => value.gte(0) && value.lt(1), {
  message: 'must be at least 0 and below 1, e.g. 0.08 for 8 %',
});
const ratio = decimalValue.refine((value) => value.gt(0) && value.lt(1), {
  message: 'must be above 0 and below 1',
});

/**
 * Borrowing terms of one asset: an annual or an hourly interest rate (one of them), the per-user
 * borrow quota, the loan pool and the minimum borrow. Output: the simulated venue's `LoanAssetTerms` (annual rate).
 */
export const loanAssetTermsSchema = z
  .strictObject({
    annualRate: rate
      .optional()
      .describe(
        "Annual interest rate (0.08 = 8 %; the venue's annualInterestRate), charged on the principal at annualRate / 8760 an hour of virtual time (each charge rounded up to 8 decimal places), every hour started (a loan repaid within its hour pays that hour; one still open when a backtest ends is not charged for the hour under way, and the run warns with that amount).",
      ),
    hourlyRate: rate
      .optional()
      .describe('Hourly interest rate instead of annualRate (0.00001 = 0.001 % an hour, 8.76 % a year).'),
    userQuota: positiveDecimal.describe(
      "Per-user maximum borrow of the coin, in coin units (the venue's maxBorrowQuota); more is refused with 406017.",
    ),
    pool: positiveDecimal
      .optional()
      .describe(
        "What the exchange's loan pool can lend, in coin units (406018 beyond it); absent = userQuota, so the quota binds first.",
      ),
    minBorrow: positiveDecimal
      .optional()
      .describe(
        "Smallest amount one borrow may take, in coin units; less is refused with 406015. Default 0.00000001 (Keel's assumption: the venue publishes none). Borrow and repay amounts finer than 8 decimal places are refused with 406015 too.",
      ),
  })
  .superRefine((terms, ctx) => {
    if ((terms.annualRate === undefined) === (terms.hourlyRate === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: terms.annualRate === undefined ? [] : ['hourlyRate'],
        message: 'needs exactly one of annualRate or hourlyRate',
        input: terms,
      });
    }
  })
  .transform((terms) => ({
    annualRate: terms.annualRate ?? (terms.hourlyRate ?? D(0)).mul(HOURS_PER_YEAR),
    userQuota: terms.userQuota,
    pool: terms.pool ?? terms.userQuota,
    ...(terms.minBorrow === undefined ? {} : { minBorrow: terms.minBorrow }),
  }));

/**
 * Margin-loan terms of a simulated venue (backtest or paper): which assets can be borrowed and
 * on what terms, and the LTV limits (LTV = loan value / (equity + loan value)). Without it no
 * asset can be borrowed (every borrow is refused with 406014): Keel ships no venue's rates.
 */
export const loanTermsConfigSchema = z
  .strictObject({
    assets: z
      .record(
        z.string().regex(LOAN_ASSET_KEY, { error: 'must be EXCHANGE:COIN in upper case, e.g. BINANCE:USDT' }),
        loanAssetTermsSchema,
      )
      .describe(
        'Borrowable assets by EXCHANGE:COIN, e.g. { "BINANCE:USDT": { annualRate: 0.08, userQuota: 50000 } }.',
      ),
    maxBorrowLtv: ratio
      .prefault(0.5)
      .describe("Largest LTV a borrow may leave; beyond it 406019. Default 0.5 (Keel's choice)."),
    ltvWarningLevel: ratio
      .optional()
      .describe(
        "LTV at or above which new borrowing is refused with 406020; at most maxBorrowLtv. Default 0.9 x maxBorrowLtv, 0.45 with its default (Keel's choice).",
      ),
    maintenanceMarginRate: rate
      .prefault(0.05)
      .describe("Maintenance margin charged on loan value. Default 0.05 (Keel's choice)."),
  })
  .superRefine((loans, ctx) => {
    if (loans.ltvWarningLevel?.gt(loans.maxBorrowLtv)) {
      ctx.addIssue({
        code: 'custom',
        path: ['ltvWarningLevel'],
        message: `is ${loans.ltvWarningLevel?.toFixed()}, above maxBorrowLtv ${loans.maxBorrowLtv.toFixed()}: it must not be higher`,
        input: loans.ltvWarningLevel,
      });
    }
  });

/** Loan terms of a simulated venue, validated (the simulated venue's `LoanOptions`). */
export type LoanTermsConfig = z.output<typeof loanTermsConfigSchema>;
