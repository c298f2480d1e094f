import { closeSync, fsyncSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TimerPort } from '../../core/venue/index.ts';
import { makePrivateDirSync, openPrivateSync } from '../files/index.ts';
import { FileWriteError } from '../report/index.ts';
import { type CommandName, isCommandName } from './command-table.ts';
import type { Params } from './request-fields.ts';

/** One state-changing command as it ran: after `at` market events, on one portfolio. */
export interface CommandEntry {
  readonly at: number;
  /**
   * When the command reached the matching engine, venue ms: set when the venue applies an
   * order-entry latency (the sim's time moves to it before the command runs).
   */
  readonly arrival?: number;
  readonly portfolioId: string;
  readonly command: CommandName;
  readonly params: Params;
  readonly where: string;
}

/**
 * A lockstep tick: after `at` market events the venue and every portfolio's sim moved to a
 * client's wake-up time, firing the sims' timers due by then, and the commands the client sent at
 * it ran at that time. A replay moves there too, or those commands would run at the time of the
 * event before (and the snapshot's venue time would not be reached). Logs written before ticks
 * were journaled hold none: their commands sent at a tick replay at the event's time, as before.
 */
export interface TickEntry {
  readonly at: number;
  /** The wake-up time the venue moved to, venue ms. */
  readonly tickTo: number;
}

/** One entry of the journal: a command, or a lockstep tick between market events. */
export type JournalEntry = CommandEntry | TickEntry;

/**
 * Whether a journal entry is a lockstep tick.
 * @param entry - any entry
 * @returns true for a tick, false for a command
 */
export function isTickEntry(entry: JournalEntry): entry is TickEntry {
  return 'tickTo' in entry;
}

/**
 * The paper venue's snapshot file. The sim is deterministic, so the journal of commands (kept in
 * the command log beside it, `paper-venue.commands.jsonl`) plus the number of market events
 * released rebuilds every portfolio exactly (orders, executions, positions, loans, algo orders) by
 * replaying the same feed. The snapshot keeps how far the feed went, which the journal does not,
 * and the markups in force when it was taken (a markup from the `feeMarkup` option is not
 * journaled; journaled changes after the snapshot override them); so it stays a few hundred bytes
 * however long the venue runs. `view`, the state written out for people, is added when the venue
 * closes; the next start checks that its replay rebuilds it (an upgraded sim could run a journaled
 * command otherwise).
 */
export interface PaperSnapshot {
  readonly format: 'keel-paper-venue';
  readonly version: 2;
  /** The version of the Keel that wrote it (absent: a Keel before 0.2.0). */
  readonly keel?: string;
  readonly released: number;
  /** Venue time of the last released event: a restart checks it replayed the same feed. */
  readonly virtualNow: number;
  /**
   * How many journal entries (commands and lockstep ticks) the venue had made when it was written
   * (the log may hold more).
   */
  readonly journalLength: number;
  /** Sub-portfolio markups set through the broker endpoints, bps text by portfolio. */
  readonly markups: Readonly<Record<string, string>>;
  /**
   * The venue's server clock when the snapshot was written, with the wall clock's reading then:
   * a restart of a realtime feed stamped on the wall clock resumes that clock from there at its
   * speed, the downtime included (see `MarketFeed.resumeClock`). Absent when an older Keel wrote it.
   */
  readonly clock?: ClockReading;
  /**
   * Every portfolio as the venue held it when it closed (`PortfolioView`s, as an older Keel wrote
   * them when read back); absent in a snapshot written between a start and a close.
   */
  readonly view?: unknown;
}

/** One reading of the venue's server clock against the wall clock, both epoch ms. */
export interface ClockReading {
  /** The wall clock (the injected timer's). */
  readonly wall: number;
  /** The venue's server clock (its `Date` header) at that wall time. */
  readonly venue: number;
}

/**
 * A snapshot as Keel wrote it until version 2: the whole journal inside, rewritten at every
 * snapshot (which made a long-running venue spend most of its time writing it), and the command
 * log holding only the entries after it. Read, then replaced by version 2.
 */
export interface PaperSnapshotV1 extends Omit<PaperSnapshot, 'version' | 'journalLength'> {
  readonly version: 1;
  /** Commands only: ticks were journaled after version 2 replaced it. */
  readonly journal: readonly CommandEntry[];
}

/** The snapshot file's name inside the data directory. */
export const SNAPSHOT_FILE = 'paper-venue.json';

/**
 * The text of a file the venue keeps in its data directory.
 * @param path - the file
 * @returns its text, or undefined when it cannot be read (the venue never wrote it)
 */
export function savedText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Writes a data-directory file whole: a temporary file (every byte written, and flushed to disk)
 * renamed over it, so a crash or a full disk leaves the old file or the new one, never half of one.
 * It is readable by its owner only (0600), whatever mode the file it replaces or a temporary one a
 * crash left had: the venue's files hold credentials, orders, fills and balances.
 * @param path - the file
 * @param text - its text
 * @param temporary - the temporary file; default `<path>.tmp` (a file more than one process
 *   writes needs a name of its own per process, or one's rename would move the other's half-written bytes)
 * @throws FileWriteError naming the file (its `code` the file system's, e.g. ENOSPC) when it
 *   cannot be written; the old file is left as it was and the temporary one removed
 */
export function writeWhole(path: string, text: string, temporary = `${path}.tmp`): void {
  try {
    const fd = openPrivateSync(temporary, 'w');
    try {
      // writeFileSync carries a write the file system cuts short on from where it stopped.
      writeFileSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // A directory in the way stays: the error below names the file it blocks.
    }
    throw new FileWriteError(path, error);
  }
}

/**
 * Reads the snapshot of a data directory.
 * @param dataDir - the directory
 * @returns the snapshot (either version), or undefined when the venue never saved one there
 * @throws Error naming the file when it exists but is not a paper-venue snapshot
 */
export function loadSnapshot(dataDir: string): PaperSnapshot | PaperSnapshotV1 | undefined {
  const path = join(dataDir, SNAPSHOT_FILE);
  const text = savedText(path);
  if (text === undefined) return undefined;
  const parsed = JSON.parse(text) as Partial<PaperSnapshot> | Partial<PaperSnapshotV1>;
  if (parsed.format === 'keel-paper-venue' && parsed.version === 2 && Number.isInteger(parsed.journalLength))
    return parsed as PaperSnapshot;
  if (parsed.format !== 'keel-paper-venue' || parsed.version !== 1 || !Array.isArray(parsed.journal)) {
    throw new Error(`${path} is not a keel paper-venue snapshot (format keel-paper-venue, version 1 or 2)`);
  }
  const bad = parsed.journal.find((entry) => !isCommandName(entry.command));
  if (bad) throw new Error(`${path}: journal entry with unknown command ${JSON.stringify(bad.command)}`);
  return parsed as PaperSnapshotV1;
}

/**
 * What a restart would lose while the snapshot cannot be written: the command log keeps every
 * order, fill and markup set, the snapshot only the feed's position.
 */
const UNSAVED_SNAPSHOT =
  'the venue goes on; restarted now, it would resume the feed from its last saved snapshot or logged command (the market events since are released again); orders, fills and markups are in the command log';

/**
 * Writes snapshots atomically (temporary file, then rename) into a data directory: after a
 * change, debounced on the injected timer, and on `flush` (close), which adds the view. A
 * debounced write that fails (a full disk) never stops the venue: it is told once and retried
 * after the debounce until it succeeds, which is told too.
 */
export class SnapshotWriter {
  private cancel: (() => void) | undefined;
  /** Whether the last debounced write failed (told already). */
  private failing = false;

  /**
   * @param dataDir - the directory (created when missing)
   * @param timer - the timer port that drives the debounce
   * @param debounceMs - how long changes gather before a write (and a failed write is retried)
   * @param build - makes the snapshot to write, without the view
   * @param view - makes the view of every portfolio, written at close
   * @param tell - where a failed write (and the next one that succeeds) is told; default stderr
   */
  constructor(
    private readonly dataDir: string,
    private readonly timer: TimerPort,
    private readonly debounceMs: number,
    private readonly build: () => PaperSnapshot,
    private readonly view: () => Promise<unknown>,
    private readonly tell: (message: string) => void = (message) => process.stderr.write(`⚠ ${message}\n`),
  ) {
    makePrivateDirSync(dataDir);
  }

  /** Notes a change: a write follows after the debounce. */
  changed(): void {
    this.cancel ??= this.timer.setTimer(() => {
      this.cancel = undefined;
      this.writeOrRetry();
    }, this.debounceMs);
  }

  /**
   * Writes now with the view (and drops a pending debounced write, which would drop the view).
   * @throws Error naming the file when it cannot be written (the venue is closing: the caller says so)
   */
  async flush(): Promise<void> {
    const view = await this.view();
    this.cancel?.();
    this.cancel = undefined;
    this.write({ ...this.build(), view });
  }

  /** A debounced write: a failure is told (once until a write succeeds) and retried, never thrown. */
  private writeOrRetry(): void {
    try {
      this.write(this.build());
    } catch (error) {
      if (!this.failing)
        this.tell(
          `paper venue snapshot not saved, retrying: ${(error as Error).message}; ${UNSAVED_SNAPSHOT}`,
        );
      this.failing = true;
      this.changed();
      return;
    }
    if (this.failing) this.tell(`paper venue snapshot saved again in ${join(this.dataDir, SNAPSHOT_FILE)}`);
    this.failing = false;
  }

  private write(snapshot: PaperSnapshot): void {
    writeWhole(join(this.dataDir, SNAPSHOT_FILE), JSON.stringify(snapshot, null, 1));
  }
}
