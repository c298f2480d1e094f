import { appendFileSync, closeSync, fstatSync, openSync, readSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { makePathPrivateSync, makePrivateDirSync, PRIVATE_FILE_MODE } from '../files/index.ts';
import { isCommandName } from './command-table.ts';
import {
  type CommandEntry,
  type JournalEntry,
  loadSnapshot,
  type PaperSnapshot,
  type PaperSnapshotV1,
  SNAPSHOT_FILE,
  savedText,
  type TickEntry,
  writeWhole,
} from './persistence.ts';

/** The command log's name inside the data directory: the journal, written ahead of each command. */
export const COMMAND_LOG_FILE = 'paper-venue.commands.jsonl';

/** One line of the write-ahead log: a journal entry and its place in the journal. */
interface CommandLogLine {
  readonly index: number;
  readonly entry: JournalEntry;
}

/**
 * The paper venue's journal on disk: each state-changing command is appended (synchronously,
 * before it runs and before its reply leaves) to `paper-venue.commands.jsonl`, as is each lockstep
 * tick before the venue moves to its time, so a venue that crashes loses none of the commands it
 * acknowledged, and a write costs one line however long the venue has run. The log is never
 * emptied: it is the journal a restart replays.
 */
export class CommandLog {
  private readonly path: string;
  /**
   * The log's size after its last whole entry, once its torn tail is mended (before the first
   * append, and again after a rewrite): a write that fails, or is cut short, is cut back to it.
   */
  private size: number | undefined;
  /** A failed write that could not be cut back yet: the next append cuts the log back first. */
  private cutPending = false;
  /** Whether the log was set readable by its owner only (it holds the account's orders and fills). */
  private madePrivate = false;

  /**
   * Opens the log of a data directory, changing nothing in it (a start the restore refuses leaves
   * the data dir as it was).
   * @param dataDir - the data directory (created when missing)
   */
  constructor(dataDir: string) {
    makePrivateDirSync(dataDir);
    this.path = join(dataDir, COMMAND_LOG_FILE);
  }

  /**
   * Appends one entry. Before the first, a last line a crash left without its newline is mended,
   * so the entry starts a line of its own: ended when it holds a whole entry (it was written, so
   * its command ran), cut off when it does not (its command never ran). A write that fails (disk
   * full, the file-size limit, an I/O error) leaves no part of its line: the log is cut back to its
   * last whole entry, now or, when that fails too, before the next append.
   * @param entry - the command as journaled
   * @param index - its place in the journal (0-based)
   * @throws Error when the entry could not be written (the log is as it was before: its command
   *   must not run), or a failed write before it could still not be cut back
   */
  append(entry: JournalEntry, index: number): void {
    const size = this.size ?? mendTornTail(this.path);
    this.size = size;
    if (this.cutPending) {
      cutBack(this.path, size);
      this.cutPending = false;
    }
    const line = lineOf(entry, index);
    try {
      appendFileSync(this.path, line, { mode: PRIVATE_FILE_MODE });
      // A log an earlier Keel wrote keeps its mode when appended to: set once, at the first entry.
      if (!this.madePrivate) makePathPrivateSync(this.path);
      this.madePrivate = true;
    } catch (error) {
      try {
        cutBack(this.path, size);
      } catch {
        this.cutPending = true;
      }
      throw error;
    }
    this.size = size + Buffer.byteLength(line);
  }

  /**
   * Replaces the log with a whole journal, atomically (temporary file, then rename): a data dir
   * of snapshot version 1, whose log held only the entries after its snapshot's journal.
   * @param entries - the journal, from its first entry
   */
  rewrite(entries: readonly JournalEntry[]): void {
    writeWhole(this.path, entries.map(lineOf).join(''));
    this.size = undefined;
    this.cutPending = false;
  }
}

/**
 * Cuts the log back to a size, after a write that failed (a log a failed first write never
 * created has nothing to cut).
 */
function cutBack(path: string, size: number): void {
  try {
    truncateSync(path, size);
  } catch (error) {
    if (size > 0 || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * Ends or cuts off a last line a crash left without its newline (see {@link CommandLog.append}).
 * @returns the log's size after it (0 when there is no log yet)
 */
function mendTornTail(path: string): number {
  if (!endsMidLine(path)) return sizeOf(path);
  const text = savedText(path) ?? '';
  const lineStart = text.lastIndexOf('\n') + 1;
  if (parsedLine(text.slice(lineStart)) !== undefined) appendFileSync(path, '\n');
  else truncateSync(path, Buffer.byteLength(text.slice(0, lineStart)));
  return sizeOf(path);
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
}

/**
 * Whether a log file's last byte is not a newline: a crash cut its last line. Reads that byte
 * only, so opening a long log costs no second read of it (the restart reads it once, whole).
 */
function endsMidLine(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return false;
  }
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  } finally {
    closeSync(fd);
  }
}

function lineOf(entry: JournalEntry, index: number): string {
  const line: CommandLogLine = { index, entry };
  return `${JSON.stringify(line)}\n`;
}

/**
 * The entries of a data directory's command log from one index on: from 0 the whole journal; after
 * a version 1 snapshot's journal, from its length (lines it already holds are skipped). A last
 * line cut short by a crash while it was written is dropped (its command never ran: it is written
 * before it runs).
 * @param dataDir - the directory
 * @param journalLength - the index of the first entry wanted
 * @returns the entries from that index, in order
 * @throws Error naming the file and line when a line is malformed or an entry is missing
 */
export function loggedAfter(dataDir: string, journalLength: number): JournalEntry[] {
  const path = join(dataDir, COMMAND_LOG_FILE);
  const lines = savedText(path)?.split('\n') ?? [];
  // After the last newline: nothing, or a line cut short unless it parses.
  if (parsedLine(lines[lines.length - 1] ?? '') === undefined) lines.pop();
  const entries: JournalEntry[] = [];
  let next = journalLength;
  lines.forEach((raw, i) => {
    const line = parsedLine(raw);
    if (line === undefined) throw new Error(`${path}:${i + 1}: not a paper-venue command log line`);
    if (line.index < next) return;
    if (line.index > next) {
      throw new Error(
        `${path}:${i + 1}: entry ${line.index} follows entry ${next - 1}: the log is missing entries`,
      );
    }
    entries.push(line.entry);
    next++;
  });
  return entries;
}

function parsedLine(text: string): CommandLogLine | undefined {
  try {
    const line = JSON.parse(text) as Partial<CommandLogLine>;
    if (!Number.isInteger(line.index) || typeof line.entry !== 'object' || line.entry === null)
      return undefined;
    const entry = line.entry as Partial<CommandEntry & TickEntry>;
    const known =
      entry.tickTo === undefined ? isCommandName(entry.command ?? '') : Number.isFinite(entry.tickTo);
    return known ? (line as CommandLogLine) : undefined;
  } catch {
    return undefined;
  }
}

/** What a data directory holds: its snapshot, if one was written, and the whole journal. */
export interface SavedJournal {
  readonly saved: PaperSnapshot | PaperSnapshotV1 | undefined;
  readonly entries: readonly JournalEntry[];
}

/**
 * Reads a data directory's snapshot and journal: the command log from its first entry, or after
 * a version 1 snapshot its own journal and then the log's entries after it.
 * @param dataDir - the directory
 * @returns the snapshot and the journal to replay
 * @throws Error naming the file when the snapshot is not one, the log is malformed or has a gap,
 *   or the log holds fewer entries than the snapshot says the venue had journaled
 */
export function savedJournal(dataDir: string): SavedJournal {
  const saved = loadSnapshot(dataDir);
  if (saved?.version === 1)
    return { saved, entries: [...saved.journal, ...loggedAfter(dataDir, saved.journal.length)] };
  const entries = loggedAfter(dataDir, 0);
  if (saved !== undefined && entries.length < saved.journalLength) {
    throw new Error(
      `${join(dataDir, SNAPSHOT_FILE)}: the venue had journaled ${saved.journalLength} commands and ` +
        `lockstep ticks, but ${join(dataDir, COMMAND_LOG_FILE)} holds ${entries.length}: the command log was truncated or replaced`,
    );
  }
  return { saved, entries };
}
