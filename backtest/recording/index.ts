/**
 * Session recordings: one JSON line per raw venue message with its local receive time and source,
 * after a header line; plain `.jsonl` or `.jsonl.gz`. Writer, streaming reader, Observable and
 * k-way merge by receive time.
 * @packageDocumentation
 */
export type { GapRecordMessage } from './gap-record.ts';
export { gapOfRecordMessage, gapRecordMessage } from './gap-record.ts';
export type { MergeRepeats, ReceiveTimed } from './merge-by-recv-ts.ts';
export { mergeByRecvTs } from './merge-by-recv-ts.ts';
export { mergeRecordings } from './merge-recordings.ts';
export type { MessageSource, RecordDecoder, RecordedMessage } from './recorded-message.ts';
export { keepRecord, MESSAGE_SOURCES } from './recorded-message.ts';
export type { RecordingDamageKind, SkippedLines } from './recording-damage.ts';
export { RecordingDamage } from './recording-damage.ts';
export { type LastRecvTsOptions, readLastRecvTs } from './recording-end-time.ts';
export type { RecordingWarning, RecordingWarningKind } from './recording-errors.ts';
export { RecordingFormatError, warnToStderr } from './recording-errors.ts';
export { recordingObservable } from './recording-observable.ts';
export type { MalformedLinePolicy, RecordingReadOptions } from './recording-reader.ts';
export {
  isGzipPath,
  MAX_LINE_BYTES,
  RECV_TS_JUMP_WARN_MS,
  readEventBatches,
  readEvents,
  readRecordBatches,
  readRecords,
  readSessionHeader,
} from './recording-reader.ts';
export type { RecordingWriterOptions } from './recording-writer.ts';
export { RecordingWriter } from './recording-writer.ts';
export type { SessionHeader, SessionHeaderInit } from './session-header.ts';
export {
  parseSessionHeader,
  RECORDING_FORMAT_NAME,
  RECORDING_FORMAT_VERSION,
  sessionHeader,
} from './session-header.ts';
export { refusingUnreadable, UnreadableRecordingError } from './unreadable-recording.ts';
