import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isCommandName } from './command-table.ts';
import { type JournalEntry, savedText } from './persistence.ts';

/** The write-ahead log's name inside the data directory. */
export const COMMAND_LOG_FILE = 'paper-venue.commands.jsonl';

/** One line of the write-ahead log: a journal entry and its place in the journal. */
interface CommandLogLine {
  readonly index: number;
  readonly entry: JournalEntry;
}

/**
 * The paper venue's write-ahead log: each state-changing command is appended (synchronously,
 * before it runs and before its reply leaves) to `paper-venue.commands.jsonl`, so a venue that
 * crashes between two debounced snapshots loses none of the commands it acknowledged. A snapshot
 * holds the whole journal, so the log is emptied after each one is written.
 */
export class CommandLog {
  private readonly path: string;

  /** @param dataDir - the data directory (created when missing) */
  constructor(dataDir: string) {
    mkdirSync(dataDir, { recursive: true });
    this.path = join(dataDir, COMMAND_LOG_FILE);
  }

  /**
   * Appends one entry.
   * @param entry - the command as journaled
   * @param index - its place in the journal (0-based)
   */
  append(entry: JournalEntry, index: number): void {
    const line: CommandLogLine = { index, entry };
    appendFileSync(this.path, `${JSON.stringify(line)}\n`);
  }

  /** Empties the log: a snapshot written just now holds every entry it had. */
  reset(): void {
    writeFileSync(this.path, '');
  }
}

/**
 * The entries of a data directory's write-ahead log that come after a snapshot's journal. Lines
 * the snapshot already holds (a crash between a snapshot and the log's reset) are skipped; a last
 * line cut short by a crash while it was written is dropped (its command never ran: it is written
 * before it runs).
 * @param dataDir - the directory
 * @param journalLength - how many entries the snapshot's journal holds (0 without a snapshot)
 * @returns the entries to replay after the snapshot's, in order
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
        `${path}:${i + 1}: command ${line.index} follows command ${next - 1}: the log is missing entries`,
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
    if (!isCommandName(line.entry.command)) return undefined;
    return line as CommandLogLine;
  } catch {
    return undefined;
  }
}
