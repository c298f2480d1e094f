import { type AlgoOrder, isFinalAlgoState } from '../../core/model/index.ts';
import {
  ALGO_ORDER_CODEC,
  type AlgoOrderRecord,
  nextAlgoOrderRecord,
  type RecordLog,
  type SpillDirectory,
} from '../report/index.ts';
import { CreationOrderJournal, type CreationOrderJournalOptions } from './creation-order-journal.ts';

/** Sizes of an {@link AlgoOrderJournal}, and which updates are one algo order. */
export interface AlgoOrderJournalOptions extends CreationOrderJournalOptions {
  /**
   * The key of the algo order an update belongs to (default: the venue's algoOrderId, else the
   * clientAlgoOrderId). A session keys by clientAlgoOrderId first: the adapter may report an
   * algo order before the venue numbered it.
   */
  readonly keyOf?: (algo: AlgoOrder) => string;
}

const byVenueId = (algo: AlgoOrder): string => algo.algoOrderId || algo.clientAlgoOrderId;

/**
 * Every algo order of a run (standalone trigger orders and attached take-profit / stop-loss legs)
 * in its last state with its steps, in creation order, without holding them: an algo order stays
 * in memory while it is open, a finished one (TRIGGERED, CANCELLED, FAILED) goes to the run's
 * spill files (see {@link CreationOrderJournal}). An update after an algo order finished, or
 * older than its last one, is ignored, as the kernel ignores it.
 */
export class AlgoOrderJournal {
  private readonly journal: CreationOrderJournal<AlgoOrderRecord>;
  private readonly keyOf: (algo: AlgoOrder) => string;

  /**
   * @param dir - the run's spill directory
   * @param options - window and run sizes, and the key of an update
   */
  constructor(dir: SpillDirectory, options: AlgoOrderJournalOptions = {}) {
    this.keyOf = options.keyOf ?? byVenueId;
    this.journal = new CreationOrderJournal(
      dir,
      'algo-orders',
      ALGO_ORDER_CODEC.encode,
      ALGO_ORDER_CODEC,
      options,
    );
  }

  /** Algo orders open now (held in memory). */
  get openCount(): number {
    return this.journal.openCount;
  }

  /** @returns the algo orders open now (NEW), in their latest state */
  openRecords(): Iterable<AlgoOrderRecord> {
    return this.journal.openRecords();
  }

  /**
   * @param key - an algo order's key (see {@link AlgoOrderJournalOptions.keyOf})
   * @returns its record while it is open, else undefined
   */
  current(key: string): AlgoOrderRecord | undefined {
    return this.journal.current(key);
  }

  /**
   * Takes an algo order update from the venue.
   * @param algo - the algo order's latest state
   * @param strategyId - the strategy owning it, when known
   * @returns the key the algo order is held under
   */
  update(algo: AlgoOrder, strategyId: string | undefined): string {
    const id = this.keyOf(algo);
    const previous = this.journal.current(id);
    if (previous === undefined && this.journal.finishedRecently(id)) return id;
    const next = nextAlgoOrderRecord(previous, algo, strategyId);
    if (next !== undefined) this.journal.update(id, next, isFinalAlgoState(next.state));
    return id;
  }

  /**
   * Ends the run: writes the algo orders still open (NEW) and returns every algo order.
   * @returns every algo order, in creation order
   */
  finish(): RecordLog<AlgoOrderRecord> {
    return this.journal.finish();
  }
}
