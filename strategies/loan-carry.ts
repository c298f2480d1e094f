import { z } from 'zod';
import { defineStrategy, type StrategyContext } from '../core/kernel/index.ts';
import { D, type Dec, ZERO } from '../core/model/index.ts';

const params = z
  .object({
    exchange: z.string().min(1).describe('Exchange account the loan is taken on, e.g. BINANCE.'),
    coin: z.string().min(1).describe('The coin borrowed, e.g. USDT.'),
    targetLtv: z
      .number()
      .positive()
      .max(0.9)
      .describe(
        'LTV the strategy steers to, as the venue measures it: loan value / (equity + loan value), equity net of loans (0.2: borrow a quarter of equity).',
      ),
    band: z
      .number()
      .positive()
      .max(0.5)
      .default(0.05)
      .describe('Borrow below targetLtv - band, repay above targetLtv + band.'),
    coinPrice: z
      .number()
      .positive()
      .default(1)
      .describe(
        'Price of one coin in the settlement currency when it cannot be derived (1 for stablecoins).',
      ),
    minAmount: z
      .number()
      .positive()
      .default(1)
      .describe('Smallest borrow or repay worth a request, in coin units.'),
    checkEveryMs: z.number().int().positive().default(60_000).describe('How often the LTV is checked, ms.'),
  })
  .strict()
  .refine((p) => p.targetLtv - p.band > 0, {
    message: 'band must be smaller than targetLtv',
    path: ['band'],
  });

/** Parameters of the loan carry. */
export type LoanCarryParams = z.infer<typeof params>;

interface LoanCarryState {
  /** The reference of the borrow or repay in flight, if any. */
  pending: string | undefined;
  /** The loan when that request was sent: a change means the venue has acted on it. */
  loanAtRequest: Dec;
  /** The amount of the borrow in flight (zero for a repay), halved when the quota or pool refuses it. */
  borrowing: Dec;
  /**
   * The most a borrow asks for, after the venue's quota or pool refused more (406017, 406018);
   * undefined = no cap.
   */
  borrowCap: Dec | undefined;
  /** The loan at the last check: a fall (a repay, a liquidation) frees quota and lifts the cap. */
  lastLoan: Dec;
}

type Ctx = StrategyContext<LoanCarryParams, LoanCarryState>;

/** Refusals saying what is left to lend is less than the amount asked for. */
const LIMIT_REFUSALS = new Set(['venue.406017', 'venue.406018']);

/** The coin's price in the settlement currency, from the loan's own valuation when there is a loan. */
function coinPrice(ctx: Ctx, loan: Dec, loanValue: Dec): Dec {
  return loan.gt(0) ? loanValue.div(loan) : D(ctx.params.coinPrice);
}

/**
 * Keeps a margin loan at a target loan-to-value. LTV is the venue's: the coin's loan value L
 * divided by (E + L), E = `ctx.equity()` (equity net of loans, in the settlement currency), so
 * `targetLtv` means what the venue's LTV limits (406019, 406020) mean. Borrowing or repaying
 * leaves E unchanged (the coin and the loan move together), so the target loan value is
 * targetLtv x E / (1 - targetLtv). Every `checkEveryMs` it borrows (LTV below `targetLtv - band`)
 * or repays (above `targetLtv + band`) the amount that brings LTV back to the target, floored to
 * 8 decimals and never more than the loan when repaying; amounts under `minAmount` are not worth
 * a request. One request is in flight at a time: the next waits until the loan has changed (the
 * venue acted) or the request was refused (a denial, after which the next check asks again).
 * The venue's per-user quota and loan pool may lend less than the target needs, and a strategy
 * cannot ask how much is left: a borrow they refuse (406017, 406018) caps the next ones at half
 * of it, halved again at each such refusal, so the strategy borrows what is left in a few steps
 * and stops asking once the cap is under `minAmount`. The cap lifts when the loan falls (a repay
 * or a liquidation frees quota).
 * @example
 * { id: 'carry', strategy: loanCarry, params: { exchange: 'BINANCE', coin: 'USDT', targetLtv: 0.3 } }
 */
export const loanCarry = defineStrategy<LoanCarryParams, LoanCarryState>({
  name: 'loan-carry',
  description: 'Borrows and repays through the loan endpoints to hold a target loan-to-value.',
  params,
  state: () => ({
    pending: undefined,
    loanAtRequest: ZERO,
    borrowing: ZERO,
    borrowCap: undefined,
    lastLoan: ZERO,
  }),
  onStart: (ctx) => {
    ctx.every(ctx.params.checkEveryMs, 'ltv');
  },
  onDenied: (ctx, denial) => {
    if (denial.ref !== ctx.state.pending) return;
    ctx.state.pending = undefined;
    if (ctx.state.borrowing.gt(0) && LIMIT_REFUSALS.has(denial.check))
      ctx.state.borrowCap = ctx.state.borrowing.div(2).toDecimalPlaces(8, D.ROUND_DOWN);
  },
  onTimer: (ctx) => {
    const { exchange, coin, targetLtv, band, minAmount } = ctx.params;
    const asset = ctx.asset(coin);
    const loan = asset?.loan ?? ZERO;
    const loanValue = asset?.loanValue ?? ZERO;
    if (loan.lt(ctx.state.lastLoan)) ctx.state.borrowCap = undefined;
    ctx.state.lastLoan = loan;
    if (ctx.state.pending !== undefined && !loan.eq(ctx.state.loanAtRequest)) ctx.state.pending = undefined;
    const equity = ctx.equity();
    if (!equity.gt(0) || ctx.state.pending !== undefined) return;
    const ltv = loanValue.div(equity.plus(loanValue)).toNumber();
    if (Math.abs(ltv - targetLtv) <= band) return;
    const needed = D(targetLtv)
      .mul(equity)
      .div(D(1).sub(targetLtv))
      .sub(loanValue)
      .div(coinPrice(ctx, loan, loanValue))
      .abs()
      .toDecimalPlaces(8, D.ROUND_DOWN);
    if (needed.lt(minAmount)) return;
    const borrows = ltv < targetLtv;
    const cap = ctx.state.borrowCap ?? needed;
    const amount = borrows ? D.min(needed, cap) : D.min(needed, loan);
    // The quota or pool left less than is worth a request.
    if (borrows && amount.lt(minAmount)) return;
    const intent = borrows
      ? ctx.order.borrow({ exchange, coin, amount })
      : ctx.order.repay({ exchange, coin, amount });
    ctx.state.pending = intent.ref;
    ctx.state.loanAtRequest = loan;
    ctx.state.borrowing = borrows ? amount : ZERO;
    return intent;
  },
});
