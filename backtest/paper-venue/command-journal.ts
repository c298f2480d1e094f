import type { CommandName } from './command-table.ts';
import { COMMANDS } from './command-table.ts';
import { type CommandEntry, isTickEntry, type JournalEntry, type TickEntry } from './persistence.ts';
import type { PortfolioBook } from './portfolio-book.ts';
import type { Params } from './request-fields.ts';
import type { VenueClock } from './venue-clock.ts';
import type { VenueLatency } from './venue-latency.ts';

/**
 * The venue's state-changing commands in the order they ran, each after how many market events
 * it ran, and the lockstep ticks that moved the venue's time between events: the sims are
 * deterministic, so replaying the journal against the same feed rebuilds every portfolio (what
 * the paper-venue snapshot keeps). Each entry goes to `changed` (the data dir's command log) and
 * is not kept: the journal only counts them, so a long session's memory does not grow with every
 * command and tick.
 */
export class CommandJournal {
  /** Commands run and ticks made so far: the index the next entry gets. */
  private count = 0;
  /** Market events the portfolios have processed (an entry made now replays after that many). */
  private seen = 0;

  /**
   * @param books - every portfolio by id
   * @param clock - the venue's time, moved to a delayed command's arrival and to a tick's time
   * @param delays - the order-entry latency commands from REST wait on
   * @param changed - called with each new entry and its index before it takes effect (the
   *   write-ahead log, then the snapshot writer's debounce); not for entries replayed at a restart.
   *   When it throws, the entry is not journaled and its command or tick does not run
   */
  constructor(
    private readonly books: ReadonlyMap<string, PortfolioBook>,
    private readonly clock: VenueClock,
    private readonly delays: Pick<VenueLatency, 'afterOrderEntry'>,
    private readonly changed: (entry: JournalEntry, index: number) => void,
  ) {}

  /** @returns how many commands and ticks were journaled so far (replayed ones included) */
  get length(): number {
    return this.count;
  }

  /**
   * Notes that the portfolios processed market events up to `seq`.
   * @param seq - the seq of the last event they processed
   */
  marketEventSeen(seq: number): void {
    this.seen = seq;
  }

  /**
   * Journals a command and runs it.
   * @param book - the portfolio it runs on
   * @param name - the command
   * @param params - the request parameters
   * @param where - the request, for errors
   * @param arrival - when it reached the matching engine (venue ms), with an order-entry latency
   * @returns the command's reply data
   * @throws PaperApiError when the command is refused (it stays journaled: a replay refuses it too)
   * @throws Error when the entry could not be journaled (the command did not run)
   */
  execute(book: PortfolioBook, name: CommandName, params: Params, where: string, arrival?: number): unknown {
    const entry: CommandEntry = {
      at: this.seen,
      ...(arrival === undefined ? {} : { arrival }),
      portfolioId: book.portfolioId,
      command: name,
      params,
      where,
    };
    this.append(entry);
    return this.run(book, entry);
  }

  /**
   * Journals a lockstep tick and moves the venue and every portfolio's sim to its time (firing
   * the sims' timers due by then): the commands the client sends at the tick then run at its time,
   * after a restart too.
   * @param at - the client's wake-up time, venue ms
   */
  tick(at: number): void {
    const entry: TickEntry = { at: this.seen, tickTo: at };
    this.append(entry);
    this.moveTo(at);
  }

  /**
   * Journals and runs a command once it reached the matching engine (after the order-entry latency).
   * @param book - the portfolio it runs on
   * @param name - the command
   * @param params - the request parameters
   * @param where - the request, for errors
   * @returns the command's reply data, once it ran; rejects with the PaperApiError of a refusal
   */
  executeLater(book: PortfolioBook, name: CommandName, params: Params, where: string): Promise<unknown> {
    return new Promise<unknown>((resolve, reject) =>
      this.delays.afterOrderEntry(name, (arrival) => {
        try {
          resolve(this.execute(book, name, params, where, arrival));
        } catch (error) {
          reject(error);
        }
      }),
    );
  }

  /**
   * Runs the saved entries again as a restart's replayed feed reaches them, counting them again (the log has them already).
   * The journal is in the order the entries were made, so by market-event count: one cursor walks it
   * once over the whole replay. An entry of a portfolio the venue no longer has is journaled but
   * not run: the journal keeps the log's numbering (a new entry's index is the journal's length),
   * and the entry comes back with its portfolio.
   * @param saved - the saved journal
   * @returns a function to call with each market-event count the portfolios reach, increasing
   *   from 0; it runs the commands and makes the ticks journaled after exactly that many events
   */
  replayer(saved: readonly JournalEntry[]): (at: number) => void {
    let next = 0;
    return (at) => {
      while (next < saved.length) {
        const entry = saved[next] as JournalEntry;
        if (entry.at > at) return;
        next++;
        this.count++;
        if (isTickEntry(entry)) {
          this.moveTo(entry.tickTo);
          continue;
        }
        const book = this.books.get(entry.portfolioId);
        if (!book) continue;
        try {
          this.run(book, entry);
        } catch {
          // The command was refused the first time too; replaying it keeps the sim's counters equal.
        }
      }
    };
  }

  /**
   * Hands an entry on; it takes the next index only once that returned, so an entry whose write
   * failed (its command or tick then does not run) leaves no gap in the numbering.
   */
  private append(entry: JournalEntry): void {
    this.changed(entry, this.count);
    this.count++;
  }

  /** Moves the venue and every portfolio's sim to a time, as the feed's events do. */
  private moveTo(ts: number): void {
    this.clock.reach(ts);
    for (const book of this.books.values()) book.advanceTo(ts);
  }

  /** Runs a command; a delayed one first moves its portfolio's sim (and the venue) to its arrival. */
  private run(book: PortfolioBook, entry: CommandEntry): unknown {
    if (entry.arrival !== undefined) {
      this.clock.reach(entry.arrival);
      book.advanceTo(entry.arrival);
    }
    return COMMANDS[entry.command](this.books, book, entry.params, entry.where);
  }
}
