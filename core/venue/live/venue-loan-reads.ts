import type { Logger } from 'pino';
import { loanCorrections } from '../../execution/index.ts';
import type { Loan, UserEvent } from '../../model/index.ts';
import type { VenueRestClient } from '../rest/rest-client.ts';
import { readLoans } from './loan-events.ts';
import type { LoanReadOrder } from './loan-read-order.ts';

/** What {@link VenueLoanReads} reads with and reports to. */
export interface VenueLoanReadsOptions {
  readonly rest: VenueRestClient;
  /** The venue's time, epoch ms: what the loan events are stamped with. */
  readonly now: () => number;
  /** The loans Keel holds now (those the venue no longer lists are reported paid off). */
  readonly localLoans: () => readonly Loan[];
  /** Where the loan events go. */
  readonly emit: (event: UserEvent) => void;
  /** The order of all the client's loan reads (those after its borrows and repays too). */
  readonly order: LoanReadOrder;
  readonly logger: Logger;
}

/**
 * Reads the venue's loans when something other than Keel's own borrows and repays may have moved
 * them: a liquidation repays loans itself, and the venue pushes no loan updates, so without a
 * read Keel would hold a loan the liquidation repaid as still owed. Each read reports the loans
 * the venue lists and each of Keel's it no longer lists as paid off (principal 0), as
 * reconciliation does. One read runs at a time: asked again while one runs, another follows it,
 * so the last read starts after the last request (a liquidation advances node by node). A read
 * whose reply comes after that of a loan read sent later (the one after a borrow, say) is dropped
 * (see {@link LoanReadOrder}): its listing may predate the borrow.
 */
export class VenueLoanReads {
  private running: Promise<boolean> | undefined;
  private queued: Promise<boolean> | undefined;

  /** @param options - the REST client, the clock, Keel's loans and where events go */
  constructor(private readonly options: VenueLoanReadsOptions) {}

  /**
   * Reads the loans after any read already running.
   * @returns true once the venue's loans were read and reported (or a read sent after it was);
   *   false when the read failed (logged at warn; Keel's loans are left as they were)
   */
  request(): Promise<boolean> {
    if (this.running === undefined) {
      this.running = this.read().finally(() => {
        this.running = undefined;
      });
      return this.running;
    }
    this.queued ??= this.running.then(() => {
      this.queued = undefined;
      return this.request();
    });
    return this.queued;
  }

  private async read(): Promise<boolean> {
    const read = this.options.order.send();
    let loans: Loan[];
    try {
      loans = await readLoans(this.options.rest, this.options.now());
    } catch (error) {
      this.options.logger.warn(
        { err: String(error) },
        "could not read the venue's margin loans: the loans known before are kept",
      );
      return false;
    }
    if (!this.options.order.admit(read)) return true;
    const ts = this.options.now();
    const venue = loans.map((loan) => ({ ...loan, updateAt: ts }));
    for (const event of loanCorrections(this.options.localLoans(), venue, ts)) this.options.emit(event);
    return true;
  }
}
