/**
 * The simulated venue's error codes, in one table. Codes the spec states (401129, 401011) carry the
 * spec's meaning; 400001, 400009, 401018, 401023, 401058, 401097, 406010 and 406012 follow the public
 * venue docs (per public venue docs). The spec names 406014–406023 as ten loan codes without their
 * individual meanings: the meanings below are Keel's choice, aligned with the live adapter's table
 * in core/venue (core/venue/error-codes.ts); change both together.
 */
export const SIM_ERRORS = {
  BAD_PARAMETERS: { code: 400001, message: 'bad parameters' },
  BAD_SYMBOL: { code: 400009, message: 'the symbol is not supported' },
  ADL_SYM_NOT_SUPPORTED: { code: 401011, message: 'the sym is not supported for ADL rank' },
  ORDER_NOT_FOUND: { code: 401018, message: 'order not found' },
  INSUFFICIENT_MARGIN: { code: 401023, message: 'insufficient margin' },
  ORDER_ALREADY_FINAL: { code: 401058, message: 'the order is already final' },
  POSITION_QTY_ZERO: { code: 401097, message: 'position quantity is 0' },
  CLOSE_POSITION_REJECTED: {
    code: 401129,
    message:
      'close position rejected: too many syms or reduce-only open orders; cancel open orders and retry',
  },
  DUPLICATE_CLIENT_ORDER_ID: { code: 406010, message: 'duplicate clientOrderId' },
  POSITION_MODE_SWITCH_BLOCKED: {
    code: 406012,
    message: 'position mode cannot change while positions or open orders exist',
  },
  LOAN_ASSET_NOT_BORROWABLE: { code: 406014, message: 'the asset cannot be borrowed on this exchange' },
  LOAN_AMOUNT_INVALID: { code: 406015, message: 'the loan amount must be positive' },
  LOAN_INSUFFICIENT_MARGIN: { code: 406016, message: 'not enough available margin to carry this loan' },
  LOAN_QUOTA_EXCEEDED: { code: 406017, message: 'the per-user borrow quota would be exceeded' },
  LOAN_POOL_EXCEEDED: { code: 406018, message: 'the loan pool has not enough of this asset' },
  LOAN_LTV_EXCEEDED: {
    code: 406019,
    message: 'the loan-to-value ratio after borrowing would exceed the limit',
  },
  LOAN_LTV_WARNING: {
    code: 406020,
    message: 'borrowing is restricted while the portfolio LTV or margin is at warning level',
  },
  LOAN_FROZEN_IN_LIQUIDATION: {
    code: 406021,
    message: 'loans cannot change while the portfolio is in liquidation',
  },
  LOAN_REPAY_EXCEEDS_PRINCIPAL: {
    code: 406022,
    message: 'the repay amount exceeds the outstanding principal',
  },
  LOAN_REPAY_INSUFFICIENT_BALANCE: { code: 406023, message: 'not enough balance of the asset to repay' },
} as const;

/** The name of one entry of {@link SIM_ERRORS}. */
export type SimErrorName = keyof typeof SIM_ERRORS;

/**
 * Formats an error as the `reason` of a rejected order: `"<code> <message>"`, with detail.
 * @param name - the error
 * @param detail - what exactly was wrong, appended after a colon
 * @returns the reason text
 */
export function rejectionReason(name: SimErrorName, detail?: string): string {
  const error = SIM_ERRORS[name];
  return detail === undefined
    ? `${error.code} ${error.message}`
    : `${error.code} ${error.message}: ${detail}`;
}

/** An error the simulated venue answers to a query (e.g. ADL rank of an unknown sym). */
export class SimVenueError extends Error {
  /** The venue's error code. */
  readonly code: number;

  /**
   * @param name - the error
   * @param detail - what exactly was wrong
   */
  constructor(name: SimErrorName, detail?: string) {
    super(rejectionReason(name, detail));
    this.name = 'SimVenueError';
    this.code = SIM_ERRORS[name].code;
  }
}
