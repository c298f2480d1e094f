import { D } from '../../core/model/index.ts';
import { orderToWire } from '../../core/venue/index.ts';
import type { CommandJournal } from './command-journal.ts';
import type { MarketFeed } from './market-feed.ts';
import type { JournalEntry, PaperSnapshot } from './persistence.ts';
import type { PortfolioBook } from './portfolio-book.ts';
import type { VenueClock } from './venue-clock.ts';
import { decimalsAsText, executionToWire, positionToWire } from './wire-views.ts';

/** The venue state a snapshot is taken from and restored into. */
export interface VenueState {
  /** Every portfolio by id. */
  readonly books: ReadonlyMap<string, PortfolioBook>;
  /** The commands run so far, replayed on restore. */
  readonly journal: CommandJournal;
  /** The market feed, whose position the snapshot keeps. */
  readonly feed: MarketFeed;
  /** The venue's time. */
  readonly clock: VenueClock;
}

/**
 * The snapshot of the venue as it stands: the feed's position and the journal's length (what a
 * restart reads back), markups, and, when asked, every portfolio written out for people.
 * @param state - the venue's portfolios, journal, feed and clock
 * @param withView - whether to write the portfolios out (at close; they grow with the history)
 * @returns the snapshot to write
 */
export function snapshotOf(state: VenueState, withView: boolean): PaperSnapshot {
  const { books } = state;
  const markups: Record<string, string> = {};
  for (const book of books.values())
    if (book.markup) markups[book.portfolioId] = book.markup.mul(10_000).toFixed();
  const snapshot: PaperSnapshot = {
    format: 'keel-paper-venue',
    version: 2,
    released: state.feed.released,
    virtualNow: state.clock.now(),
    journalLength: state.journal.length,
    markups,
  };
  if (!withView) return snapshot;
  return {
    ...snapshot,
    view: [...books.values()].map((book) => ({
      portfolioId: book.portfolioId,
      main: book.isMain,
      positionMode: book.positionMode,
      orders: [...book.orders.values()].map(orderToWire),
      executions: book.executions.map(executionToWire),
      positions: [...book.positions.values()].map(positionToWire),
      loans: [...book.loans.values()].map(decimalsAsText),
    })),
  };
}

/**
 * Rebuilds the venue from a snapshot and its journal: replays the feed silently up to where it
 * was saved (or to the last journaled command's event, if later), running each journaled command
 * after the market events it followed and moving the venue to each journaled lockstep tick's time
 * in turn, then sets the markups.
 * @param state - the fresh venue's portfolios, journal, feed (not started) and clock
 * @param saved - the snapshot read from the data dir, if one was written
 * @param entries - the whole journal (the command log's entries, after a version 1 snapshot's own)
 * @param dataDir - the data dir, for the error
 * @throws Error when the feed does not replay to the snapshot's event count and venue time, or
 *   not as far as the journaled commands
 */
export async function restoreSnapshot(
  state: VenueState,
  saved: Pick<PaperSnapshot, 'released' | 'virtualNow' | 'markups'> | undefined,
  entries: readonly JournalEntry[],
  dataDir: string,
): Promise<void> {
  const { books, journal, feed, clock } = state;
  const replay = journal.replayer(entries);
  replay(0);
  const savedReleased = saved?.released ?? 0;
  await feed.catchUp(savedReleased, replay);
  if (saved !== undefined && (feed.released !== saved.released || clock.now() !== saved.virtualNow)) {
    throw new Error(
      `${dataDir}: the snapshot was taken after ${saved.released} market events at venue time ${saved.virtualNow}, ` +
        `but this feed replays to ${feed.released} events at ${clock.now()}: start the venue with the feed it was saved with`,
    );
  }
  const loggedReleased = entries.reduce((most, entry) => Math.max(most, entry.at), savedReleased);
  await feed.catchUp(loggedReleased, replay);
  if (feed.released !== loggedReleased) {
    throw new Error(
      `${dataDir}: commands were logged after ${loggedReleased} market events, but this feed ends after ` +
        `${feed.released}: start the venue with the feed it was saved with`,
    );
  }
  for (const [id, bps] of Object.entries(saved?.markups ?? {})) {
    const book = books.get(id);
    book?.setMarkup(D(bps).div(10_000));
  }
}
