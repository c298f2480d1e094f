import type { Observable } from 'rxjs';
import type {
  Account,
  AlgoOrder,
  Asset,
  Execution,
  Loan,
  Order,
  Position,
  UserEvent,
} from '../model/index.ts';
import type { ApprovedIntent } from '../risk/index.ts';

/** What the venue holds right now: the input of reconciliation. */
export interface VenueSnapshot {
  readonly ts: number;
  readonly openOrders: readonly Order[];
  readonly openAlgoOrders: readonly AlgoOrder[];
  readonly positions: readonly Position[];
  /**
   * The balances per coin; absent when the venue did not list them (its account reply holds no
   * assets): reconciliation then keeps Keel's, which the venue's Assets pushes keep.
   */
  readonly assets?: readonly Asset[];
  readonly account?: Account;
  /**
   * Executions (fills) the venue lists for the window the port asked about, any order: the fills
   * reconciliation compares with those Keel has seen, so a fill made while the User Data stream
   * was down is not lost. Absent when the port did not fetch them.
   */
  readonly executions?: readonly Execution[];
  /**
   * Outstanding margin loans (principal left): reconciliation replaces Keel's with them, so a
   * restarted session, or one whose read after a borrow or repay failed, knows what it owes. Absent
   * when the port did not fetch them (Keel's loans are then left as they are).
   */
  readonly loans?: readonly Loan[];
}

/**
 * The execution port: what both the simulated venue (`backtest/sim`) and the live venue adapter
 * (`core/venue`) implement, so a strategy cannot tell them apart. Results of commands come back
 * only as User Data events on {@link ExecutionPort.events}, never as return values.
 */
export interface ExecutionPort {
  /** User Data events this client produces: acks, order updates, fills, positions, assets... */
  readonly events: Observable<UserEvent>;
  /**
   * Sends an approved command to the venue. Never throws for venue-side failures: those come
   * back as REJECTED order updates or `commandRejected` events. Commands on a sym reach the venue
   * in the order submitted, whichever channel each goes over.
   * @param command - an intent the risk gate approved
   */
  submit(command: ApprovedIntent): void;
  /**
   * Looks up an order by its caller reference (clientOrderId), or by the venue's orderId when it
   * has none (an order placed outside Keel); used when an ack is overdue, when a command's answer
   * was lost and by reconciliation.
   * @param sym - the order's symbol
   * @param clientOrderId - the caller reference the order was sent with; '' when it has none
   * @param orderId - the venue's id of the order, when known; used when clientOrderId is ''
   * @returns the venue's view of the order, or undefined when the venue never saw it
   * @throws LastingLookupFailure when asking again will not help (see `lasting-lookup-failure.ts`);
   *   any other error for a failure that may pass
   */
  lookupOrder(sym: string, clientOrderId: string, orderId?: string): Promise<Order | undefined>;
  /**
   * Takes a snapshot of open orders, algo orders, positions, assets, account and loans.
   * @returns the venue's current state
   */
  snapshot(): Promise<VenueSnapshot>;
}
