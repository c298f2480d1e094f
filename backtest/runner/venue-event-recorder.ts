import type { UserEvent } from '../../core/model/index.ts';
import { ownedRecordLine, withOwner } from '../report/index.ts';
import type { RunRecords } from './assemble-result.ts';
import {
  isLoanRefusal,
  loanRefusalWarning,
  refusedLoanText,
  rejectedOrderText,
  rejectionWarning,
} from './rejection-warning.ts';

/**
 * Writes what the simulated venue reports into the run's records as it happens (fills with their
 * owner, order and algo order states, liquidations), and counts what the run's warnings tell:
 * rejected orders, refused loans, the syms ordered and the last fill's time.
 */
export class VenueEventRecorder {
  readonly #records: RunRecords;
  readonly #ownerOf: (ref: string) => string | undefined;
  readonly #orderedSyms = new Set<string>();
  // The sim reports an order REJECTED once, as its final state.
  #rejected = 0;
  #firstRejected: string | undefined;
  #loanRefusals = 0;
  #firstLoanRefusal: string | undefined;
  #lastFillTs = Number.NEGATIVE_INFINITY;

  /**
   * @param records - the run's records
   * @param ownerOf - the strategy that owns an order, by its client reference (undefined: none)
   */
  constructor(records: RunRecords, ownerOf: (ref: string) => string | undefined) {
    this.#records = records;
    this.#ownerOf = ownerOf;
  }

  /**
   * Records one venue event.
   * @param event - the event, as the venue reported it
   */
  record(event: UserEvent): void {
    const records = this.#records;
    if (event.kind === 'execution') {
      const execution = event.execution;
      const owner = this.#ownerOf(execution.clientOrderId);
      const fills = records.fills;
      // Once the log writes its records out as they come, a fill is written with its owner
      // rather than copied with it first.
      if (owner === undefined) fills.append(execution);
      else if (fills.holdsNext) fills.append(withOwner(execution, owner));
      else fills.appendLine(ownedRecordLine(execution, owner));
      records.costs.add(execution);
      records.syms.addFill(execution);
      records.book.add(execution, owner, records.batches.batchOf(execution.clientOrderId));
      this.#lastFillTs = Math.max(this.#lastFillTs, execution.timestamp);
    } else if (event.kind === 'order') {
      records.journal.update(
        event.order,
        this.#ownerOf(event.order.clientOrderId) ?? records.journal.ownerOf(event.order.orderId),
      );
      this.#orderedSyms.add(event.order.sym);
      if (event.order.orderState === 'REJECTED') {
        this.#rejected += 1;
        this.#firstRejected ??= rejectedOrderText(event.order);
      }
    } else if (event.kind === 'algoOrder') {
      records.algoOrders.update(event.algoOrder, this.#ownerOf(event.algoOrder.clientAlgoOrderId));
    } else if (event.kind === 'liquidationEvent' || event.kind === 'liquidationPosition') {
      records.liquidations.observe(event);
    } else if (event.kind === 'commandRejected' && isLoanRefusal(event)) {
      this.#loanRefusals += 1;
      this.#firstLoanRefusal ??= refusedLoanText(event);
    }
  }

  /** The syms the venue reported an order on. */
  get orderedSyms(): ReadonlySet<string> {
    return this.#orderedSyms;
  }

  /** The time of the last fill, epoch ms; negative infinity before any. */
  get lastFillTs(): number {
    return this.#lastFillTs;
  }

  /**
   * @param placed - how many orders were placed
   * @returns the warning counting the rejected orders, or undefined when none was rejected
   */
  rejectionWarning(placed: number): string | undefined {
    return rejectionWarning(this.#rejected, placed, this.#firstRejected);
  }

  /** @returns the warning counting the refused loans, or undefined when none was refused */
  loanRefusalWarning(): string | undefined {
    return loanRefusalWarning(this.#loanRefusals, this.#firstLoanRefusal);
  }
}
