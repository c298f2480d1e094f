import { resolve } from 'node:path';
import type { Logger } from 'pino';
import { shownPath } from '../../backtest/report/index.ts';
import type { StrategySlot } from '../../core/kernel/index.ts';
import type { InstrumentSpec } from '../../core/model/index.ts';
import type { KeelConfig } from '../schema/index.ts';
import { SESSION_EQUITY_SAMPLE_MS } from './session-equity-sampler.ts';
import { SessionRecorder } from './session-recorder.ts';

/** What a live or paper session's recording is opened with. */
export interface VenueSessionRecordingInput {
  readonly config: KeelConfig;
  readonly mode: 'live' | 'paper';
  /** How the venue is named in the recording header. */
  readonly venueLabel: string;
  readonly instruments: readonly InstrumentSpec[];
  readonly slots: readonly StrategySlot[];
  /** True when the market data is generated: the header says SYNTHETIC. */
  readonly synthetic: boolean;
  /** Receive time of recorded frames (see SessionRecorder.open). */
  readonly sessionClock: () => number;
  /** Where a recording that cannot be written (a full disk) is told of, once, at error level. */
  readonly logger: Logger;
}

/**
 * Opens the recording the config asks for (`recording.path`), its header naming the venue, the
 * syms, the start time and the strategies, and labelling SYNTHETIC market data as such. A write
 * that fails later is logged once and ends the recording, not the session (its warning goes in
 * the result, see `SessionRecorder.warnings`).
 * @param input - config, venue label, instruments, strategies and the session clock
 * @returns the absolute path and the recorder; both undefined when the config records nothing
 */
export async function openVenueSessionRecording(
  input: VenueSessionRecordingInput,
): Promise<{ readonly path: string | undefined; readonly recorder: SessionRecorder | undefined }> {
  if (input.config.recording === undefined) return { path: undefined, recorder: undefined };
  const path = resolve(input.config.recording.path);
  const strategies = input.slots.map((s) => s.strategy.name).join(', ');
  const recorder = await SessionRecorder.open(
    path,
    {
      venue: input.venueLabel,
      symbols: input.instruments.map((s) => s.sym),
      // A paper venue's clock reads 0 until it releases its first event.
      startTime: input.sessionClock() || Date.now(),
      synthetic: input.synthetic,
      description: `${input.mode} session of ${strategies}${input.synthetic ? ' on SYNTHETIC market data (generated, not a real market)' : ''}`,
      // A backtest of the recording samples its equity as the session does.
      equitySampleMs: SESSION_EQUITY_SAMPLE_MS,
    },
    input.sessionClock,
    { onFailure: (message) => input.logger.error({ recording: path }, message) },
  );
  return { path, recorder };
}

/**
 * What the session summary says of an earlier recording moved out of the way.
 * @param recorder - the session's recorder, if it records
 * @param path - the recording's path
 * @returns one note when an earlier recording was kept, else none
 */
export function keptRecordingNotes(
  recorder: SessionRecorder | undefined,
  path: string | undefined,
): string[] {
  return recorder?.keptPrevious === undefined
    ? []
    : [`the earlier recording at ${shownPath(path ?? '')} was kept as ${shownPath(recorder.keptPrevious)}`];
}

/**
 * A forced stop (a second signal during the shutdown): saves the recording's last frames and
 * says what is lost.
 * @param signal - the second signal
 * @param mode - live or paper
 * @param recorder - the session's recorder, if it records
 * @param path - the recording's path
 * @param logger - where the error goes
 */
export function recordingOnForcedStop(
  signal: string,
  mode: 'live' | 'paper',
  recorder: SessionRecorder | undefined,
  path: string | undefined,
  logger: Logger,
): void {
  logger.error(
    { signal, recording: path },
    `second ${signal}: the ${mode} session ends now, without its shutdown: no result is written and orders may still be open on the venue`,
  );
  recorder?.close();
}
