import type { Logger } from 'pino';
import type { AlgoOrder, Execution } from '../../core/model/index.ts';
import { algoOrderFromWire, type VenueRestClient } from '../../core/venue/index.ts';
import { AttachedLegFeed, type LegParent } from './attached-leg-feed.ts';
import type { RunMetrics } from './run-metrics.ts';
import { UserDataJournal, type UserDataJournalOptions } from './user-data-journal.ts';

/**
 * Entries of the venue's algo order history read at most per parent order (Keel's choice: a few
 * pages; the legs of a parent that just ended are among the newest entries of its sym).
 */
export const MAX_LEG_SCAN = 500;

/**
 * The venue's algo order history of a sym from `begin` (epoch ms, venue time), newest first as
 * the venue pages it.
 */
export type AlgoOrderHistory = (sym: string, begin: number) => AsyncIterable<AlgoOrder>;

/** What the lookups of the legs read of the venue. */
export interface VenueAlgoOrders {
  /** The algo order history of a sym, for the legs of a parent that just ended. */
  readonly history: AlgoOrderHistory;
  /** The venue's current view of one algo order by its algoOrderId, for a leg asked for again. */
  readonly byId: (algoOrderId: string) => Promise<AlgoOrder>;
}

/** Where the legs the venue reported go: the session's User Data journal. */
export interface AttachedLegSink {
  /**
   * Takes a take-profit / stop-loss leg as the venue reported it.
   * @param leg - the algo order, naming its parent in `attachedOrderId`
   * @param parentOwner - the strategy owning the parent order, when known
   * @param parent - the parent order, as the session recorded it (or as adopted legs name it)
   */
  attachedLeg(leg: AlgoOrder, parentOwner: string | undefined, parent: LegParent): void;
}

/**
 * The take-profit / stop-loss legs a venue attached to a session's orders, asked of the venue.
 * The venue reports an attached leg only as the parent order's tp* / sl* fields: it pushes no algo
 * order updates (the spec has no such User Data channel), so the legs would be missing from a
 * session's algo orders although a backtest of the same data lists them. Once a parent that
 * carries tp / sl ends with fills, the venue's algo order history of its sym (from the parent's
 * creation) is read for the algo orders whose `attachedOrderId` names it, and each is taken as
 * the venue reported it: its ids, trigger, quantity and state. Keel's choice of when to ask: the
 * paper venue attaches the legs when the parent is final with fills; when a real venue attaches
 * them is not shown, and a parent's end is the latest moment they can appear. A leg's later
 * states arrive as for any algo order: TRIGGERED when the order it sends names it, the venue read
 * again when they may have changed (see {@link AttachedLegFeed}), and the venue's own answer for
 * the legs still open at the session's end. A parent's legs asked for again (those still open,
 * the legs open at start-up included) are read one by one by their ids, not from the history,
 * whose newest entries (see {@link MAX_LEG_SCAN}) may no longer reach them. Lookups
 * run one at a time, in the order they were asked for; one that fails is reported and skipped.
 */
export class AttachedLegLookups {
  private queue: Promise<void> = Promise.resolve();
  /** Lookups asked for and not yet ended. */
  private inFlight = 0;
  /** The parents whose lookup is asked for and not yet begun: asking again adds nothing. */
  private readonly waiting = new Set<string>();

  /**
   * @param sink - where the legs go
   * @param venue - the venue's algo order history, and its read of one algo order
   * @param onError - told of a lookup that failed (the parent's legs are then not listed)
   * @param maxScan - history entries read at most per parent (default {@link MAX_LEG_SCAN})
   */
  constructor(
    private readonly sink: AttachedLegSink,
    private readonly venue: VenueAlgoOrders,
    private readonly onError: (parent: LegParent, error: unknown) => void,
    private readonly maxScan = MAX_LEG_SCAN,
  ) {}

  /**
   * Asks the venue for a parent's legs (after the lookups asked for before): once it ended with
   * fills, and again whenever their states may have changed (see {@link AttachedLegFeed}).
   * @param parent - an order carrying tp / sl that ended with fills, or the parent of the legs it
   *   names (`legIds`), asked for again
   */
  parentEnded(parent: LegParent): void {
    if (this.waiting.has(parent.orderId)) return;
    this.waiting.add(parent.orderId);
    this.inFlight++;
    this.queue = this.queue.then(async () => {
      this.waiting.delete(parent.orderId);
      try {
        await this.lookUp(parent);
      } finally {
        this.inFlight--;
      }
    });
  }

  /** @returns when every lookup asked for so far has ended, or undefined when none is under way */
  pending(): Promise<void> | undefined {
    return this.inFlight === 0 ? undefined : this.queue;
  }

  private async lookUp(parent: LegParent): Promise<void> {
    const legs: AlgoOrder[] = [];
    try {
      if (parent.legIds === undefined) legs.push(...(await this.scanHistory(parent)));
      else for (const id of parent.legIds) legs.push(await this.venue.byId(id));
    } catch (error) {
      this.onError(parent, error);
      return;
    }
    // The history pages newest first: the legs are listed in the venue's creation order instead.
    legs.sort(
      (a, b) =>
        a.createAt - b.createAt || a.algoOrderId.localeCompare(b.algoOrderId, 'en', { numeric: true }),
    );
    for (const leg of legs) this.sink.attachedLeg(leg, parent.strategyId, parent);
  }

  /** The legs of a parent that just ended, from the newest entries of its sym's history since its creation. */
  private async scanHistory(parent: LegParent): Promise<AlgoOrder[]> {
    const expected = (parent.tp === undefined ? 0 : 1) + (parent.sl === undefined ? 0 : 1);
    const legs: AlgoOrder[] = [];
    let read = 0;
    for await (const algo of this.venue.history(parent.sym, parent.createAt)) {
      if (algo.attachedOrderId === parent.orderId) legs.push(algo);
      if (legs.length >= expected || ++read >= this.maxScan) break;
    }
    return legs;
  }
}

/**
 * The venue's algo order history over REST, page after page, and its read of one algo order.
 * @param rest - the session's REST client
 * @returns what {@link AttachedLegLookups} reads
 */
export function restAlgoOrderHistory(rest: Pick<VenueRestClient, 'pages' | 'getAlgoOrder'>): VenueAlgoOrders {
  return {
    history: async function* (sym, begin) {
      for await (const wire of rest.pages('getAlgoOrderHistory', { sym, begin }))
        yield algoOrderFromWire(wire);
    },
    byId: async (algoOrderId) => algoOrderFromWire(await rest.getAlgoOrder({ algoOrderId })),
  };
}

/** A session's User Data journal, the lookups of its attached legs and the legs as the kernel takes them. */
export interface JournalWithAttachedLegs {
  readonly journal: UserDataJournal;
  /** The lookups to wait for before the session's record ends (and, in lockstep, before an ack). */
  readonly attachedLegs: AttachedLegLookups;
  /** The legs for the kernel's User Data, and what tells it of their later states. */
  readonly legFeed: AttachedLegFeed;
}

/**
 * A session's User Data journal with the lookups of its attached legs: each entry carrying tp /
 * sl that ends with fills has its legs read from the venue's algo order history into the journal
 * and into the kernel's User Data (see {@link AttachedLegFeed}).
 * @param metrics - the session's metrics
 * @param onFill - called on every fill
 * @param ownerOf - the strategy owning a reference (the kernel's record)
 * @param venue - the venue's algo order history, and its read of one algo order
 * @param logger - told of a lookup that failed
 * @param journalOptions - the syms whose holdings may pay loan interest in their coin, and who is
 *   told of a rejected order
 * @returns the journal, the lookups and the legs' feed
 */
export function journalWithAttachedLegs(
  metrics: RunMetrics,
  onFill: ((fill: Execution) => void) | undefined,
  ownerOf: (ref: string) => string | undefined,
  venue: VenueAlgoOrders,
  logger: Logger,
  journalOptions: Pick<UserDataJournalOptions, 'coinSyms' | 'onRejected' | 'timer'>,
): JournalWithAttachedLegs {
  const legFeed = new AttachedLegFeed((parent) => attachedLegs.parentEnded(parent));
  const attachedLegs = new AttachedLegLookups(
    {
      attachedLeg: (leg, owner, parent) => {
        journal.attachedLeg(leg, owner);
        legFeed.attachedLeg(leg, parent);
      },
    },
    venue,
    (parent, error) =>
      logger.warn(
        { ref: parent.clientOrderId || parent.orderId, err: (error as Error).message },
        'could not read the take-profit / stop-loss legs of an order from the venue',
      ),
  );
  const journal = new UserDataJournal(metrics, onFill, ownerOf, {
    ...journalOptions,
    onAttachedParentEnded: (parent) => attachedLegs.parentEnded(parent),
  });
  return { journal, attachedLegs, legFeed };
}
