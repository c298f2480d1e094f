import { Subject } from 'rxjs';
import type { ExecutionPort, ReconciliationLookups, VenueSnapshot } from '../../core/execution/index.ts';
import type { AlgoOrder, Order, UserEvent } from '../../core/model/index.ts';
import type { ApprovedIntent } from '../../core/risk/index.ts';

/** An execution port that records what it is given and answers lookups (reconciliation's too) from a table. */
export interface RecordingExecutionPort extends ExecutionPort, ReconciliationLookups {
  /** Every command submitted, in order. */
  readonly submitted: ApprovedIntent[];
  /** Every lookup asked for, as `sym|clientOrderId` (an algo order's as `algo sym|clientAlgoOrderId`). */
  readonly lookups: string[];
  /** What lookupOrder answers, by clientOrderId (absent = the venue never saw it). */
  readonly venueOrders: Map<string, Order>;
  /** What lookupAlgoOrder answers, by clientAlgoOrderId (absent = the venue never saw it). */
  readonly venueAlgoOrders: Map<string, AlgoOrder>;
  /** Push User Data events to subscribers. */
  readonly emit: (event: UserEvent) => void;
  /** The snapshot `snapshot()` returns. */
  venueSnapshot: VenueSnapshot;
}

/**
 * A recording execution port for tests.
 * @returns the port
 */
export function aRecordingPort(): RecordingExecutionPort {
  const events = new Subject<UserEvent>();
  const port: RecordingExecutionPort = {
    submitted: [],
    lookups: [],
    venueOrders: new Map(),
    venueAlgoOrders: new Map(),
    venueSnapshot: { ts: 0, openOrders: [], openAlgoOrders: [], positions: [], assets: [] },
    events: events.asObservable(),
    emit: (event) => events.next(event),
    submit(command) {
      port.submitted.push(command);
    },
    lookupOrder(sym, clientOrderId) {
      port.lookups.push(`${sym}|${clientOrderId}`);
      return Promise.resolve(port.venueOrders.get(clientOrderId));
    },
    lookupAlgoOrder(algoOrder) {
      port.lookups.push(`algo ${algoOrder.sym}|${algoOrder.clientAlgoOrderId}`);
      return Promise.resolve(port.venueAlgoOrders.get(algoOrder.clientAlgoOrderId));
    },
    snapshot() {
      return Promise.resolve(port.venueSnapshot);
    },
  };
  return port;
}
