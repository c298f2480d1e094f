import type { SessionHeader } from '../recording/index.ts';

/**
 * The equity sampling step the recordings' sessions sampled at: the step the headers state
 * (`equitySampleMs`, written by a paper or live session), when those that state one all agree;
 * recordings that state none (generated, imported, history before the session) do not count. A
 * backtest of a session's recording samples at it, so its curve and drawdown figures are the
 * session's however long the session ran.
 * @param headers - each recording's header
 * @returns the step, ms; undefined when no header states one, or they state different ones
 */
export function recordedSampleStep(
  headers: readonly Pick<SessionHeader, 'equitySampleMs'>[],
): number | undefined {
  const steps = new Set(headers.flatMap((h) => (h.equitySampleMs === undefined ? [] : [h.equitySampleMs])));
  return steps.size === 1 ? [...steps][0] : undefined;
}
