import type { Dec, InstrumentSpec } from '../../core/model/index.ts';
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
 * @returns "" when there is none, else e.g. " Sub-portfolio markup 1.5 bps on every rate, on top of any instrument markup."
 */
export function subPortfolioMarkupText(markup: Dec | undefined): string {
  return markup === undefined || markup.isZero()
    ? ''
    : ` Sub-portfolio markup ${markup.mul(10_000).toFixed()} bps on every rate, on top of any instrument markup.`;
}
