/** The default step: one sample a minute of event time at most. */
export const DEFAULT_EQUITY_SAMPLE_MS = 60_000;

/** Steps a shorter run may use, finest first: whole seconds, so samples fall on round times. */
const STEPS_MS = [1_000, 2_000, 5_000, 10_000, 15_000, 30_000, DEFAULT_EQUITY_SAMPLE_MS] as const;

/** Samples a run of known span gets at most, unless even the default step gives more. */
const TARGET_SAMPLES = 10_000;

/**
 * The equity sampling step of a run whose event-time span is known: the finest of 1, 2, 5, 10,
 * 15, 30 and 60 s that gives at most 10 000 samples (up to 2.8 hours, every second); runs of
 * about a week or more keep one sample a minute, as does a run without a span (its recordings
 * hold no record). Keel's choice; memory stays bounded by the sampler's buckets either way. A
 * paper or live session's recording states the step its session sampled at, which a backtest of
 * it takes instead (see `recordedSampleStep`).
 * @param spanMs - last minus first event time, ms, or undefined when the recordings hold no record
 * @returns the step, ms
 */
export function equitySampleStepFor(spanMs: number | undefined): number {
  if (spanMs === undefined || !Number.isFinite(spanMs) || spanMs < 0) return DEFAULT_EQUITY_SAMPLE_MS;
  const wanted = spanMs / TARGET_SAMPLES;
  return STEPS_MS.find((step) => step >= wanted) ?? DEFAULT_EQUITY_SAMPLE_MS;
}
