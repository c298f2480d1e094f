/**
 * A recording line that cannot be used, reported with its file and line number (1-based; line 1
 * is the header).
 */
export class RecordingFormatError extends Error {
  /** The recording file. */
  readonly file: string;
  /** 1-based line number. */
  readonly line: number;
  /** What is wrong with the line. */
  readonly reason: string;

  /**
   * @param file - the recording file
   * @param line - 1-based line number
   * @param reason - what is wrong, as a sentence fragment
   */
  constructor(file: string, line: number, reason: string) {
    super(`${file}:${line}: ${reason}`);
    this.name = 'RecordingFormatError';
    this.file = file;
    this.line = line;
    this.reason = reason;
  }
}

/**
 * What a reader or writer recovered from. A reader skips a line that is `not-json`, `not-a-record`
 * (JSON, but not `{recvTs, source, msg}`) or `undecodable` (its decoder refused the message), a
 * `truncated-line` (a last line without its newline), a `damaged-gzip-member` (compressed data
 * in the middle of a gzip file that does not inflate or check: the lines it held; those after it
 * are read) and everything after `damaged-gzip` compressed data at the end of a file; it keeps
 * but warns of a `time-jump` (a record whose receive time is far from the one before); a writer
 * reports a tail it `repaired` before appending.
 */
export type RecordingWarningKind =
  | 'not-json'
  | 'not-a-record'
  | 'undecodable'
  | 'truncated-line'
  | 'damaged-gzip'
  | 'damaged-gzip-member'
  | 'time-jump'
  | 'repaired';

/** Something the reader or writer recovered from, e.g. a truncated last line it skipped. */
export interface RecordingWarning {
  readonly file: string;
  /** 1-based line number the warning is about. */
  readonly line: number;
  readonly kind: RecordingWarningKind;
  /** What is wrong with the line, without the place or what was done about it. */
  readonly reason: string;
  /** `file:line: what happened`. */
  readonly message: string;
}

/**
 * Builds a warning whose message reads like the errors (`file:line: what happened`).
 * @param file - the recording file
 * @param line - 1-based line number
 * @param kind - what kind of damage or repair
 * @param what - what happened
 * @param reason - what is wrong with the line (default: `what`)
 * @returns the warning
 */
export function recordingWarning(
  file: string,
  line: number,
  kind: RecordingWarningKind,
  what: string,
  reason: string = what,
): RecordingWarning {
  return { file, line, kind, reason, message: `${file}:${line}: ${what}` };
}

/**
 * Where warnings go when the caller gives no handler: standard error, one line each.
 * @param warning - the warning
 */
export function warnToStderr(warning: RecordingWarning): void {
  process.stderr.write(`warning: ${warning.message}\n`);
}
