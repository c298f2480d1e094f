import type { AlgoOrder } from '../../core/model/index.ts';
import {
  ALGO_ORDER_CODEC,
  type AlgoOrderRecord,
  isFinalAlgoState,
  nextAlgoOrderRecord,
  type RecordLog,
  type SpillDirectory,
} from '../report/index.ts';
import { CreationOrderJournal, type CreationOrderJournalOptions } from './creation-order-journal.ts';

/**
 * Every algo order of a run (standalone trigger orders and attached take-profit / stop-loss legs)
 * in its last state with its steps, in creation order, without holding them: an algo order stays
 * in memory while it is open, a finished one (TRIGGERED, CANCELLED, FAILED) goes to the run's
 * spill files (see {@link CreationOrderJournal}). An update after an algo order finished, or
 * older than its last one, is ignored, as the kernel ignores it.
 */
export class AlgoOrderJournal {
  private readonly journal: CreationOrderJournal<AlgoOrderRecord>;

  /**
   * @param dir - the run's spill directory
   * @param options - window and run sizes
   */
  constructor(dir: SpillDirectory, options: CreationOrderJournalOptions = {}) {
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

  /**
   * Takes an algo order update from the venue.
   * @param algo - the algo order's latest state
   * @param strategyId - the strategy owning it, when known
   */
  update(algo: AlgoOrder, strategyId: string | undefined): void {
    const id = algo.algoOrderId || algo.clientAlgoOrderId;
    const previous = this.journal.current(id);
    if (previous === undefined && this.journal.finishedRecently(id)) return;
    const next = nextAlgoOrderRecord(previous, algo, strategyId);
    if (next !== undefined) this.journal.update(id, next, isFinalAlgoState(next.state));
  }

  /**
   * Ends the run: writes the algo orders still open (NEW) and returns every algo order.
   * @returns every algo order, in creation order
   */
  finish(): RecordLog<AlgoOrderRecord> {
    return this.journal.finish();
  }
}
