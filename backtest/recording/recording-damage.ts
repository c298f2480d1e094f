import type { RecordingWarning, RecordingWarningKind } from './recording-errors.ts';

/**
 * The kinds of damage a reader skips over or (a `time-jump`) keeps but warns of (a writer's
 * repairs are not damage of the data read).
 */
export type RecordingDamageKind = Exclude<RecordingWarningKind, 'repaired'>;

/** Lines of one kind of damage a reader skipped in one recording: how many, and the first. */
export interface SkippedLines {
  readonly kind: RecordingDamageKind;
  readonly count: number;
  /** The first such line: its number and what was wrong with it. */
  readonly first: { readonly line: number; readonly reason: string };
}

/** The order warnings and tallies come in, whatever order the damage was met in. */
const KIND_ORDER: readonly RecordingDamageKind[] = [
  'not-json',
  'not-a-record',
  'undecodable',
  'truncated-line',
  'damaged-gzip-member',
  'damaged-gzip',
  'time-jump',
];

/** The kinds of a line that is not a record Keel reads (the others are a crash's damage, or kept). */
const MALFORMED_KINDS: ReadonlySet<RecordingDamageKind> = new Set([
  'not-json',
  'not-a-record',
  'undecodable',
]);

/** How a warning names lines of each kind. */
const KIND_LABEL: Readonly<Record<RecordingDamageKind, string>> = {
  'not-json': 'not JSON',
  'not-a-record': 'not a {recvTs, source, msg} record',
  undecodable: 'a message Keel does not decode',
  'truncated-line': 'a truncated last line',
  'damaged-gzip': 'damaged compressed data',
  'damaged-gzip-member': 'damaged compressed data',
  'time-jump': 'receive time far from the record before',
};

/**
 * The one policy for recording lines that cannot be read or decoded, on the reader's `skip`
 * policy: each skipped line is counted per recording and kind, the first of each kind is told
 * once (`onFirst`, e.g. a log line, never one per line), and {@link warnings} says in a sentence
 * per recording and kind how many lines were skipped and where the first was, for the result's
 * `meta.warnings`. A reader restarted on the same file (a paper feed's preview, a restart's
 * catch-up) re-reads lines already counted: a line at or before the last one noted of that file
 * is such a repeat and is not counted again.
 */
export class RecordingDamage {
  readonly #files = new Map<
    string,
    Map<RecordingDamageKind, { count: number; first: SkippedLines['first'] }>
  >();
  readonly #lastLine = new Map<string, number>();

  /** @param onFirst - told the first line of each kind of damage of each recording, when met */
  constructor(private readonly onFirst: (warning: RecordingWarning) => void = () => undefined) {}

  /**
   * Counts a line the reader skipped (pass as the reader's `onWarning`).
   * @param warning - the reader's warning; a writer's `repaired` is not counted
   */
  readonly note = (warning: RecordingWarning): void => {
    if (warning.kind === 'repaired') return;
    const last = this.#lastLine.get(warning.file);
    if (last !== undefined && warning.line <= last) return;
    this.#lastLine.set(warning.file, warning.line);
    this.add(
      warning.file,
      { kind: warning.kind, count: 1, first: { line: warning.line, reason: warning.reason } },
      warning,
    );
  };

  /**
   * Takes the lines counted before in a whole recording (an event cache keeps them for the runs it
   * serves) as the recording's tally: they replace what a reader of the same file counted so far
   * (a part of them), and a reader that reads the file again after (a damaged cache rebuilt, the
   * file listed twice in a run) counts nothing more, so each recording's damage counts once.
   * @param file - the recording
   * @param skipped - its skipped lines, as {@link skippedIn} gave them
   */
  restore(file: string, skipped: readonly SkippedLines[]): void {
    const kinds = this.#files.get(file);
    for (const lines of skipped) {
      const tally = kinds?.get(lines.kind);
      if (tally === undefined) this.add(file, lines);
      else {
        tally.count = lines.count;
        tally.first = lines.first;
      }
    }
    this.#lastLine.set(file, Number.POSITIVE_INFINITY);
  }

  /**
   * The lines skipped in a recording so far, one entry per kind, in a fixed order.
   * @param file - the recording
   * @returns the tallies; empty for a clean recording
   */
  skippedIn(file: string): SkippedLines[] {
    const kinds = this.#files.get(file);
    if (kinds === undefined) return [];
    return KIND_ORDER.flatMap((kind) => {
      const tally = kinds.get(kind);
      return tally === undefined ? [] : [{ kind, count: tally.count, first: tally.first }];
    });
  }

  /**
   * The malformed lines of a recording so far (not JSON, not a record, or refused by the decoder;
   * not a crash's damage, a truncated last line or damaged compressed data), all kinds together.
   * @param file - the recording
   * @returns how many, and the first of them; undefined when none
   */
  malformedIn(file: string): { readonly count: number; readonly first: SkippedLines['first'] } | undefined {
    const malformed = this.skippedIn(file).filter((lines) => MALFORMED_KINDS.has(lines.kind));
    if (malformed.length === 0) return undefined;
    const count = malformed.reduce((sum, lines) => sum + lines.count, 0);
    const first = malformed.reduce((a, b) => (b.first.line < a.first.line ? b : a)).first;
    return { count, first };
  }

  /**
   * One sentence per recording and kind of damage, for `meta.warnings`.
   * @param files - the recordings, in the order the warnings name them; default every recording
   *   with skipped lines, by path
   * @returns e.g. `recording a.jsonl: skipped 2 lines (not JSON), the first at a.jsonl:450: is not JSON (...); the run went on without their data`
   */
  warnings(files: readonly string[] = [...this.#files.keys()].sort()): string[] {
    return [...new Set(files)].flatMap((file) =>
      this.skippedIn(file).map((lines) => sentenceOf(file, lines)),
    );
  }

  private add(file: string, lines: SkippedLines, warning?: RecordingWarning): void {
    let kinds = this.#files.get(file);
    if (kinds === undefined) {
      kinds = new Map();
      this.#files.set(file, kinds);
    }
    const tally = kinds.get(lines.kind);
    if (tally !== undefined) {
      tally.count += lines.count;
      return;
    }
    kinds.set(lines.kind, { count: lines.count, first: lines.first });
    this.onFirst(
      warning ?? {
        file,
        line: lines.first.line,
        kind: lines.kind,
        reason: lines.first.reason,
        message: `${file}:${lines.first.line}: skipped: ${lines.first.reason}`,
      },
    );
  }
}

function sentenceOf(file: string, lines: SkippedLines): string {
  const at = `${file}:${lines.first.line}`;
  if (lines.kind === 'damaged-gzip')
    return `recording ${file}: the compressed data ends damaged at ${at} (${lines.first.reason}): the run replayed the lines before it and nothing after`;
  if (lines.kind === 'damaged-gzip-member') {
    const stretches = lines.count === 1 ? '1 stretch' : `${lines.count} stretches`;
    return `recording ${file}: skipped ${stretches} of damaged compressed data, the first at ${at}: ${lines.first.reason}; the run replayed every intact line before and after`;
  }
  if (lines.kind === 'time-jump') {
    const jumps = lines.count === 1 ? 'jumps once' : `jumps ${lines.count} times`;
    return `recording ${file}: its receive time ${jumps} by more than 30 days between records (and, forward, by more than 100 times its usual step), the first at ${at}: ${lines.first.reason}; the run kept the line, so its span and per-time metrics include the jump (unless the recording has such a gap, check that record's recvTs)`;
  }
  if (lines.kind === 'truncated-line')
    return `recording ${file}: skipped its truncated last line at ${at} (${lines.first.reason})`;
  if (lines.count === 1)
    return `recording ${file}: skipped 1 line (${KIND_LABEL[lines.kind]}) at ${at}: ${lines.first.reason}; the run went on without its data`;
  return `recording ${file}: skipped ${lines.count} lines (${KIND_LABEL[lines.kind]}), the first at ${at}: ${lines.first.reason}; the run went on without their data`;
}
