import type { Logger } from 'pino';
import { RecordingDamage } from '../../backtest/recording/index.ts';

/**
 * A tally of skipped recording lines for a paper or live session (its paper source, its warm-up
 * history) that logs the first line of each kind of each recording at warn, as pino JSON like the
 * rest of the session's log; the result's warnings count them all.
 * @param logger - the session's logger
 * @returns the tally
 */
export function loggedRecordingDamage(logger: Pick<Logger, 'warn'>): RecordingDamage {
  return new RecordingDamage((skipped) =>
    logger.warn(
      { recording: skipped.file, line: skipped.line, kind: skipped.kind, reason: skipped.reason },
      'skipped a recording line that cannot be read or decoded (more of this kind are counted, not logged)',
    ),
  );
}
