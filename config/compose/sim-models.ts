import type {
  FillModelName,
  FillModelOptions,
  LatencyOptions,
  LoanOptions,
} from '../../backtest/sim/index.ts';
import type { Dec, InstrumentSpec } from '../../core/model/index.ts';
import { D } from '../../core/model/index.ts';
import type { BacktestConfig, KeelConfig, LoanTermsConfig } from '../schema/index.ts';

type FillModelConfig = NonNullable<BacktestConfig['fillModel']>;
type LatencyConfig = NonNullable<BacktestConfig['latency']>;

/**
 * The simulated venue's fill model from the config's form (a name or a map).
 * @param config - the config's fill model
 * @returns what the simulated venue takes
 */
export function fillModelOf(config: FillModelConfig): FillModelOptions | FillModelName {
  if (typeof config === 'string') return config;
  return {
    name: config.name,
    ...(config.partialFills === undefined ? {} : { partialFills: config.partialFills }),
    ...(config.slippageTicks === undefined ? {} : { slippageTicks: config.slippageTicks }),
    ...(config.beyondBookTicks === undefined ? {} : { beyondBookTicks: config.beyondBookTicks }),
  };
}

/**
 * The simulated venue's latency legs from the config's form: the top-level delay is the order
 * entry leg; market data is zero unless given (a recording's receive times already hold it).
 * @param config - the config's latency
 * @returns the latency legs
 */
export function latencyOf(config: LatencyConfig): LatencyOptions {
  return {
    orderEntry: { fixedMs: config.fixedMs, jitterMs: config.jitterMs },
    marketData: config.marketData ?? { fixedMs: 0, jitterMs: 0 },
    ...(config.userData === undefined ? {} : { userData: config.userData }),
  };
}

/**
 * Applies the config's fee model to the instrument specs: `instrument` keeps each schedule, `flat`
 * replaces the rates. Each instrument keeps its own markup; the sub-portfolio markup is not
 * written into the specs ({@link subPortfolioMarkupOf}), so that no fill pays it twice.
 * @param specs - the instrument specs
 * @param fees - the fee model (backtest's; paper runs keep the schedules)
 * @returns the specs the simulated venue charges by
 */
export function specsWithFees(
  specs: readonly InstrumentSpec[],
  fees: BacktestConfig['fees'] | undefined,
): InstrumentSpec[] {
  if (fees?.model !== 'flat') return [...specs];
  return specs.map((spec) => ({
    ...spec,
    fees: {
      maker: D(fees.makerBps).div(10_000),
      taker: D(fees.takerBps).div(10_000),
      markup: spec.fees.markup,
      fixedPerFill: fees.fixedPerFill,
      ...(fees.fixedPerOrder === undefined ? {} : { fixedPerOrder: fees.fixedPerOrder }),
    },
  }));
}

/** The sub-portfolio the strategies trade in, undefined for the main portfolio (see {@link subPortfolioOf}). */
function subPortfolio(config: KeelConfig): KeelConfig['portfolios']['subs'][number] | undefined {
  const portfolio = config.strategies[0]?.portfolio;
  return config.portfolios.subs.find((sub) => sub.id === portfolio);
}

/**
 * The sub-portfolio the strategies trade in: the config lets a run name one portfolio only (every
 * strategy names it, or none does and the run trades in the main portfolio).
 * @param config - the validated config
 * @returns the sub-portfolio's id, undefined when the strategies trade in the main portfolio
 */
export function subPortfolioOf(config: KeelConfig): string | undefined {
  return subPortfolio(config)?.id;
}

/**
 * The sub-portfolio fee markup of the portfolio the strategies trade in (`feeMarkupBps` of that
 * sub-portfolio, {@link subPortfolioOf}), as a rate: the simulated venue's `subPortfolioMarkup`,
 * charged on top of each instrument's own markup. The main portfolio pays none.
 * @param config - the validated config
 * @returns the markup (0.000001 = 0.01 bps), undefined when the strategies trade in the main portfolio
 */
export function subPortfolioMarkupOf(config: KeelConfig): Dec | undefined {
  return subPortfolio(config)?.feeMarkupBps.div(10_000);
}

/** The default warning level as a share of maxBorrowLtv (0.45 of the default 0.5; Keel's choice). */
const LTV_WARNING_SHARE = 0.9;

/**
 * The simulated venue's margin-loan terms from loan terms as the config's `backtest.loans` or
 * `paper.loans` (or `keel venue --loans`) take them (already in the venue's form: annual rates,
 * quota, pool, minimum borrow, LTV limits); the warning level defaults to 0.9 x maxBorrowLtv, so
 * a lower maxBorrowLtv alone is a valid set of terms.
 * @param config - the loan terms given; undefined = none (nothing can be borrowed)
 * @param missingTermsAdvice - how the user gives terms, told when a borrow names an asset without
 *   any (406014): see {@link configLoanAdvice} and the flag `keel venue` takes
 * @returns the loan options
 */
export function loanOptionsOf(
  config: LoanTermsConfig | undefined,
  missingTermsAdvice: (key: string) => string,
): LoanOptions {
  if (config === undefined) return { assets: {}, missingTermsAdvice };
  return {
    assets: config.assets,
    maxBorrowLtv: config.maxBorrowLtv,
    ltvWarningLevel: config.ltvWarningLevel ?? config.maxBorrowLtv.mul(LTV_WARNING_SHARE),
    maintenanceMarginRate: config.maintenanceMarginRate,
    missingTermsAdvice,
  };
}

/**
 * The 406014 advice of a run whose loan terms come from its config.
 * @param section - the config's section holding them, `backtest.loans` or `paper.loans`
 * @returns the advice for an `EXCHANGE:COIN`
 */
export function configLoanAdvice(section: string): (key: string) => string {
  return (key) =>
    `give them in the config under ${section}.assets, e.g. "${key}": { annualRate: 0.08, userQuota: 50000 }`;
}
