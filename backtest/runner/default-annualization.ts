import type { InstrumentSpec } from '../../core/model/index.ts';
import { type AnnualizationBasis, CRYPTO_ANNUALIZATION, EQUITY_ANNUALIZATION } from '../report/index.ts';

/**
 * The annualization basis a run takes when none is given: 252 trading days a year of the regular
 * US equity session when every instrument is a US equity (their venue trades on weekdays, 09:30 to
 * 16:00 New York time), 365 days round the clock otherwise (crypto trades all the time).
 * @param instruments - the run's instruments
 * @returns the equity basis or the crypto basis
 */
export function defaultAnnualizationOf(instruments: readonly InstrumentSpec[]): AnnualizationBasis {
  const equitiesOnly = instruments.length > 0 && instruments.every((spec) => spec.id.kind === 'equity');
  return equitiesOnly ? EQUITY_ANNUALIZATION : CRYPTO_ANNUALIZATION;
}

/**
 * The annualization basis a run's metrics take, the same for a backtest and a live or paper
 * session: the given basis, else {@link defaultAnnualizationOf} the instruments, with per-sample
 * returns stepping by the equity curve's bucket width (one close per grid interval) unless the
 * basis names its own step.
 * @param instruments - the run's instruments
 * @param bucketMs - the width of the equity curve's buckets (`EquitySampler.bucketMs`)
 * @param configured - the basis the run was given, if any
 * @returns the basis
 */
export function runAnnualizationOf(
  instruments: readonly InstrumentSpec[],
  bucketMs: number,
  configured?: AnnualizationBasis,
): AnnualizationBasis {
  return { sampleStepMs: bucketMs, ...(configured ?? defaultAnnualizationOf(instruments)) };
}
