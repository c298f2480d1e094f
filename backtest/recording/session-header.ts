import { KEEL_VERSION } from '../../core/model/index.ts';
import { RecordingFormatError } from './recording-errors.ts';

/** Version of the recording format this code writes and reads. */
export const RECORDING_FORMAT_VERSION = 1;

/** Marker in the header line that says "this file is a Keel session recording". */
export const RECORDING_FORMAT_NAME = 'keel-session';

/**
 * The first line of a recording: what the file holds. The line on disk is its JSON.
 */
export interface SessionHeader {
  readonly format: typeof RECORDING_FORMAT_NAME;
  readonly formatVersion: number;
  /** The version of the Keel that wrote the file (absent: a Keel before 0.2.0). */
  readonly keel?: string;
  /** Which venue the messages came from (free text, e.g. a base URL or "synthetic"). */
  readonly venue: string;
  /** Syms the session covers. */
  readonly symbols: readonly string[];
  /** When recording started, epoch ms. */
  readonly startTime: number;
  /** True when the messages were generated, not received from a venue. */
  readonly synthetic: boolean;
  /** Free-form note for people (e.g. the generator and its seed). */
  readonly description?: string;
  /**
   * The equity sampling step of the paper or live session that recorded the file, ms: a backtest
   * of the recording samples its equity at that step (unless told another), so its curve and
   * drawdown figures are the session's. Absent in recordings made otherwise (generated, imported,
   * or by an earlier Keel).
   */
  readonly equitySampleMs?: number;
}

/**
 * What a caller supplies to start a recording; format name and version are filled in, and the
 * Keel version unless given. (A gzip recording the writer repairs before appending keeps its own
 * header exactly: `keel` only when the Keel that recorded it wrote one.)
 */
export type SessionHeaderInit = Omit<SessionHeader, 'format' | 'formatVersion'>;

/**
 * Builds a full header from what the caller knows.
 * @param init - venue, symbols, start time, synthetic flag, optional description
 * @returns the header with format name, the current format version and this Keel's version
 */
export function sessionHeader(init: SessionHeaderInit): SessionHeader {
  return {
    format: RECORDING_FORMAT_NAME,
    formatVersion: RECORDING_FORMAT_VERSION,
    keel: KEEL_VERSION,
    ...init,
  };
}

/**
 * Parses and checks a header line.
 * @param text - the first line of the file, without its newline
 * @param file - the file, for the error
 * @returns the header
 * @throws RecordingFormatError saying what is wrong when the line is not a header this code reads
 */
export function parseSessionHeader(text: string, file: string): SessionHeader {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new RecordingFormatError(file, 1, `header is not JSON (${(error as Error).message})`);
  }
  const h = value as Partial<Record<keyof SessionHeader, unknown>> | null;
  if (typeof h !== 'object' || h === null || h.format !== RECORDING_FORMAT_NAME) {
    throw new RecordingFormatError(
      file,
      1,
      `header must start the file with "format":"${RECORDING_FORMAT_NAME}"`,
    );
  }
  if (h.formatVersion !== RECORDING_FORMAT_VERSION) {
    throw new RecordingFormatError(
      file,
      1,
      `formatVersion ${String(h.formatVersion)} is not supported (this Keel reads ${RECORDING_FORMAT_VERSION})`,
    );
  }
  if (h.keel !== undefined && typeof h.keel !== 'string')
    throw new RecordingFormatError(file, 1, 'header.keel must be a version string when present');
  if (typeof h.venue !== 'string') throw new RecordingFormatError(file, 1, 'header.venue must be a string');
  if (!Array.isArray(h.symbols) || !h.symbols.every((s) => typeof s === 'string')) {
    throw new RecordingFormatError(file, 1, 'header.symbols must be an array of syms');
  }
  if (typeof h.startTime !== 'number') {
    throw new RecordingFormatError(file, 1, 'header.startTime must be epoch milliseconds');
  }
  if (typeof h.synthetic !== 'boolean')
    throw new RecordingFormatError(file, 1, 'header.synthetic must be true or false');
  if (h.description !== undefined && typeof h.description !== 'string') {
    throw new RecordingFormatError(file, 1, 'header.description must be a string when present');
  }
  if (
    h.equitySampleMs !== undefined &&
    !(typeof h.equitySampleMs === 'number' && Number.isFinite(h.equitySampleMs) && h.equitySampleMs > 0)
  )
    throw new RecordingFormatError(
      file,
      1,
      'header.equitySampleMs must be a positive number of ms when present',
    );
  return value as SessionHeader;
}
