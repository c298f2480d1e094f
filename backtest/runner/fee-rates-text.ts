import { type Dec, type InstrumentSpec, ZERO } from '../../core/model/index.ts';
import { fixedCommissionText } from './commission.ts';

/**
 * Each instrument's fee schedule in words, for a report's fee description: maker and taker
 * rates in bps, the instrument's markup when it has one, and any fixed amounts.
 * @param instruments - the run's instrument specs
 * @returns e.g. "BTCUSDT: maker 2 bps, taker 5 bps; ETHUSDT: maker 2 bps, taker 5 bps"
 */
export function instrumentFeeRatesText(instruments: readonly InstrumentSpec[]): string {
  return instruments
    .map(
      (s) =>
        `${s.sym}: maker ${s.fees.maker.mul(10_000).toFixed()} bps, taker ${s.fees.taker.mul(10_000).toFixed()} bps` +
        (s.fees.markup.isZero() ? '' : `, instrument markup ${s.fees.markup.mul(10_000).toFixed()} bps`) +
        fixedCommissionText(s.fees),
    )
    .join('; ');
}

/**
 * A sub-portfolio's fee markup in words, appended to a fee description.
 * @param markup - the markup as a fraction of notional (absent or zero = none)
 * @param subPortfolio - the sub-portfolio the run trades in, named even when its markup is zero
 * @returns "" when there is neither, else e.g. " Sub-portfolio markup 1.5 bps (of sub1, the
 *   portfolio the run trades in) on every rate, on top of any instrument markup."
 */
export function subPortfolioMarkupText(markup: Dec | undefined, subPortfolio?: string): string {
  if (subPortfolio === undefined && (markup === undefined || markup.isZero())) return '';
  const of = subPortfolio === undefined ? '' : ` (of ${subPortfolio}, the portfolio the run trades in)`;
  return ` Sub-portfolio markup ${(markup ?? ZERO).mul(10_000).toFixed()} bps${of} on every rate, on top of any instrument markup.`;
}
