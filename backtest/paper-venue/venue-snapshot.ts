import { D, KEEL_VERSION } from '../../core/model/index.ts';
import { accountViewOf } from './account-view.ts';
import type { CommandJournal } from './command-journal.ts';
import { DataDirReplayError } from './data-dir-replay-error.ts';
import type { MarketFeed } from './market-feed.ts';
import type { ClockReading, JournalEntry, PaperSnapshot, PaperSnapshotV1 } from './persistence.ts';
import type { PortfolioBook } from './portfolio-book.ts';
import { firstAccountDifference } from './replayed-account-check.ts';
import type { VenueClock } from './venue-clock.ts';

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
  /** @returns the venue's server clock now, against the wall clock */
  readonly serverClock: () => ClockReading;
}

/**
 * The snapshot of the venue as it stands: the feed's position and the journal's length (what a
 * restart reads back), markups, the server clock's reading, and the Keel that wrote it; the view
 * of every portfolio is added at close ({@link accountViewOf}).
 * @param state - the venue's portfolios, journal, feed and clock
 * @returns the snapshot to write
 */
export function snapshotOf(state: VenueState): PaperSnapshot {
  const markups: Record<string, string> = {};
  for (const book of state.books.values())
    if (book.markup) markups[book.portfolioId] = book.markup.mul(10_000).toFixed();
  return {
    format: 'keel-paper-venue',
    version: 2,
    keel: KEEL_VERSION,
    released: state.feed.released,
    virtualNow: state.clock.now(),
    journalLength: state.journal.length,
    markups,
    clock: state.serverClock(),
  };
}

/**
 * Rebuilds the venue from a snapshot and its journal: replays the feed silently up to where it was
 * saved (or to the last journaled command's event, if later), running each journaled command after
 * the market events it followed and moving the venue to each journaled lockstep tick's time in
 * turn. The feed resumes the server clock the snapshot read ({@link MarketFeed.resumeClock}). The
 * snapshot's markups are set where it was taken, before the entries journaled after it, so a
 * markup changed since wins over the snapshot's older one. Where the snapshot holds the view the
 * venue wrote at close, the account replayed up to that point (the snapshot's event count and
 * journal length) must be the one the view holds ({@link firstAccountDifference}): a journaled
 * command this Keel runs otherwise than the Keel that acknowledged it (a refused order that now
 * fills), or settings or a feed other than the ones the journal ran with (another fee, fill model
 * or starting balance), stops the start.
 * @param state - the fresh venue's portfolios, journal, feed (not started) and clock
 * @param saved - the snapshot read from the data dir, if one was written
 * @param entries - the whole journal (the command log's entries, after a version 1 snapshot's own)
 * @param dataDir - the data dir, for the error
 * @throws DataDirReplayError when the feed does not replay to the snapshot's event count and venue
 *   time, or not as far as the journaled commands, or the replayed account differs from the view
 */
export async function restoreSnapshot(
  state: VenueState,
  saved: PaperSnapshot | PaperSnapshotV1 | undefined,
  entries: readonly JournalEntry[],
  dataDir: string,
): Promise<void> {
  const { books, journal, feed, clock } = state;
  // The entries the view was written after replay first; those logged after it (a venue that
  // crashed after its next start) once the view is checked.
  const viewed = saved === undefined ? 0 : saved.version === 2 ? saved.journalLength : saved.journal.length;
  const replayViewed = journal.replayer(entries.slice(0, viewed));
  const replayLater = journal.replayer(entries.slice(viewed));
  const replay = (at: number): void => {
    replayViewed(at);
    replayLater(at);
  };
  replayViewed(0);
  const savedReleased = saved?.released ?? 0;
  await feed.catchUp(savedReleased, replayViewed);
  if (saved !== undefined && (feed.released !== saved.released || clock.now() !== saved.virtualNow)) {
    throw new DataDirReplayError(
      `${dataDir}: the snapshot was taken after ${saved.released} market events at venue time ${saved.virtualNow}, ` +
        `but this feed replays to ${feed.released} events at ${clock.now()}: start the venue with the feed it was saved with`,
    );
  }
  if (saved?.view !== undefined && journal.length === viewed) {
    const difference = firstAccountDifference(saved.view, await accountViewOf(books));
    if (difference !== undefined) throw new DataDirReplayError(mismatch(dataDir, saved.keel, difference));
  }
  if (saved?.clock !== undefined) feed.resumeClock(saved.clock);
  restoreMarkups(books, saved);
  replay(savedReleased);
  const loggedReleased = entries.reduce((most, entry) => Math.max(most, entry.at), savedReleased);
  await feed.catchUp(loggedReleased, replay);
  if (feed.released !== loggedReleased) {
    throw new DataDirReplayError(
      `${dataDir}: commands were logged after ${loggedReleased} market events, but this feed ends after ` +
        `${feed.released}: start the venue with the feed it was saved with`,
    );
  }
}

/**
 * Sets the markups a snapshot holds (bps by portfolio) on the portfolios the venue runs. Called
 * where the snapshot was taken in the replay: the journal's later `setSubFeeRate` entries then
 * override them, as they did when they ran.
 */
function restoreMarkups(
  books: ReadonlyMap<string, PortfolioBook>,
  saved: PaperSnapshot | PaperSnapshotV1 | undefined,
): void {
  for (const [id, bps] of Object.entries(saved?.markups ?? {})) books.get(id)?.setMarkup(D(bps).div(10_000));
}

/**
 * The refusal of a data dir whose replayed account differs from its view: a Keel that runs a
 * journaled command otherwise when another Keel wrote it; settings or a feed other than the ones
 * the journal ran with when this Keel did.
 */
function mismatch(dataDir: string, savedKeel: string | undefined, difference: string): string {
  const refusal =
    'The venue would serve an account its clients were never told of, so it does not start: start it';
  if (savedKeel === KEEL_VERSION) {
    return (
      `${dataDir}: replaying its command journal does not rebuild the account the venue that wrote it ` +
      `(this Keel, ${KEEL_VERSION}) acknowledged: ${difference}. The Keel is the same, so the venue's settings ` +
      '(instruments and their fees, fill model, portfolios and their starting balances, loans) or its feed ' +
      `differ from the ones the journal ran with. ${refusal} with the settings and feed this data dir ran ` +
      'with, or on a new data dir (this one is left as it is)'
    );
  }
  const writer = savedKeel === undefined ? 'a Keel before 0.2.0' : `Keel ${savedKeel}`;
  return (
    `${dataDir}: replaying its command journal, this Keel (${KEEL_VERSION}) does not rebuild the account the venue ` +
    `that wrote it (${writer}) acknowledged: ${difference}. ${refusal} on a new data dir (this one is left as ` +
    'it is), or with the Keel version that wrote this one'
  );
}
