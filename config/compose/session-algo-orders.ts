import type { AlgoOrderRecord, RecordLog, SpillDirectory } from '../../backtest/report/index.ts';
import { AlgoOrderJournal, type CreationOrderJournalOptions } from '../../backtest/runner/index.ts';
import type { AlgoOrder, Order } from '../../core/model/index.ts';
import { isFinalAlgoState } from '../../core/model/index.ts';

/** How the venue is asked about an open algo order: by the session's reference, else by the venue's id. */
export type OpenAlgoRef = { readonly clientAlgoOrderId: string } | { readonly algoOrderId: string };

/**
 * A session's algo orders, as the {@link UserDataJournal} keeps them: each in its latest state
 * with the strategy owning it, keyed by the session's reference (else the venue's id), spilled to
 * file once final, and marked TRIGGERED when an order they sent arrives.
 */
export class SessionAlgoOrders {
  private readonly journal: AlgoOrderJournal;
  /**
   * The key of each open algo order by the venue's algoOrderId, for the order it sends when it
   * fires; dropped when the algo order finishes, so it holds no more than the open ones.
   */
  private readonly algoKeys = new Map<string, string>();

  /**
   * @param dir - the session's spill directory
   * @param ownerOf - the strategy owning a clientAlgoOrderId (the kernel's record), undefined for
   *   algo orders nobody in the session placed
   * @param options - window and run sizes of the algo order journal (small in tests)
   * @throws Error (from fs) when the spill files cannot be created
   */
  constructor(
    dir: SpillDirectory,
    private readonly ownerOf: (ref: string) => string | undefined,
    options: CreationOrderJournalOptions | undefined,
  ) {
    this.journal = new AlgoOrderJournal(dir, {
      ...options,
      keyOf: (algo) => algo.clientAlgoOrderId || algo.algoOrderId,
    });
  }

  /**
   * Takes an algo order update.
   * @param algo - the algo order as the venue (or the session) reported it
   * @param fallbackOwner - the strategy owning it when its own reference names none
   */
  fold(algo: AlgoOrder, fallbackOwner?: string): void {
    const key = this.journal.update(algo, this.ownerOf(algo.clientAlgoOrderId) ?? fallbackOwner);
    const held = this.journal.current(key);
    if (held === undefined) {
      if (algo.algoOrderId) this.algoKeys.delete(algo.algoOrderId);
    } else if (held.algoOrderId !== '') this.algoKeys.set(held.algoOrderId, key);
  }

  /**
   * @param algoOrderId - the venue's id of an algo order
   * @returns the strategy recorded with it while it is open, else undefined
   */
  ownerOfOpen(algoOrderId: string): string | undefined {
    const key = this.algoKeys.get(algoOrderId);
    return key === undefined ? undefined : this.journal.current(key)?.strategyId;
  }

  /**
   * The venue pushes no algo order updates (the spec has no such User Data channel: a session
   * learns of its algo orders from the REST replies), but the order an algo order sends when it
   * fires names it (`algoOrderId`): the algo order is then marked TRIGGERED at that order's
   * creation, with that order as the one it sent (Keel's choice).
   * @param algoOrderId - the venue's id of the algo order that fired
   * @param order - the order it sent
   */
  fired(algoOrderId: string, order: Order): void {
    const key = this.algoKeys.get(algoOrderId);
    const record = key === undefined ? undefined : this.journal.current(key);
    if (record === undefined || isFinalAlgoState(record.state)) return;
    const { steps: _steps, strategyId: _owner, ...algo } = record;
    this.fold({
      ...algo,
      state: 'TRIGGERED',
      orderId: order.orderId,
      updateAt: Math.max(record.updateAt, order.createAt),
    });
  }

  /** Algo orders open now: the only ones held in memory. */
  get openCount(): number {
    return this.journal.openCount;
  }

  /**
   * The references of the algo orders still open (NEW).
   * @returns each one's clientAlgoOrderId, or the venue's algoOrderId when it has none, in
   *   first-seen order
   */
  openRefs(): OpenAlgoRef[] {
    const refs: OpenAlgoRef[] = [];
    for (const record of this.journal.openRecords()) {
      if (isFinalAlgoState(record.state)) continue;
      if (record.clientAlgoOrderId !== '') refs.push({ clientAlgoOrderId: record.clientAlgoOrderId });
      else if (record.algoOrderId !== '') refs.push({ algoOrderId: record.algoOrderId });
    }
    return refs;
  }

  /**
   * Ends the record: the algo orders still open are written in their last state.
   * @returns every algo order in its last state with its steps, in creation order
   */
  finish(): RecordLog<AlgoOrderRecord> {
    return this.journal.finish();
  }
}
