/**
 * The name of every risk check, as it appears in denials and in `disabledChecks` of the config.
 * Rule checks (instrument, order arguments, sizes) run once per intent; limit checks run once
 * against the portfolio-wide limits and once against the strategy's own. A limit check is named
 * after the config key it enforces, some shortened: `submitRate` denies what `risk.submitRate`
 * limits, `maxNotional` what `maxNotionalPerOrder` does, `maxPosition` what `maxPositionQty` and
 * `maxPositionQtyBySym` do.
 */
export const RISK_CHECK_NAMES = [
  'instrumentKnown',
  'instrumentTrading',
  'clientOrderId',
  'fieldValues',
  'orderPrice',
  'orderQty',
  'loanAmount',
  'timeInForce',
  'gtdExpiryDate',
  'conditionArguments',
  'equityAttachments',
  'cryptoConditions',
  'tpSlSide',
  'equityQuoteQty',
  'positionSide',
  'priceOnTick',
  'qtyOnLot',
  'minSize',
  'maxSize',
  'minNotional',
  'maxOrdersPerSym',
  'modifyTarget',
  'reduceOnly',
  'closePositionsSymList',
  'maxNotional',
  'maxPosition',
  'maxGrossExposure',
  'maxOpenOrders',
  'priceBand',
  'fieldTypes',
  'tradingState',
  'submitRate',
  'modifyRate',
] as const;

/** One risk check's name. */
export type RiskCheckName = (typeof RISK_CHECK_NAMES)[number];

/**
 * The checks that are always on: the field types (every later check reads the fields), the trading
 * state and the throttles (configured by their limits).
 */
const ALWAYS_ON: ReadonlySet<RiskCheckName> = new Set([
  'fieldTypes',
  'tradingState',
  'submitRate',
  'modifyRate',
]);

/** Checks a config may switch off with `disabledChecks`. */
export const DISABLEABLE_CHECK_NAMES = RISK_CHECK_NAMES.filter((name) => !ALWAYS_ON.has(name)) as [
  RiskCheckName,
  ...RiskCheckName[],
];
