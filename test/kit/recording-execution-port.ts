import { Subject } from 'rxjs';
import type { ExecutionPort, VenueSnapshot } from '../../core/execution/index.ts';
import type { Order, UserEvent } from '../../core/model/index.ts';
import type { ApprovedIntent } from '../../core/risk/index.ts';

/** An execution port that records what it is given and answers lookups from a table. */
export interface RecordingExecutionPort extends ExecutionPort {
  /** Every command submitted, in order. */
  readonly submitted: ApprovedIntent[];
  /** Every lookup asked for, as `sym|clientOrderId`. */
  readonly lookups: string[];
  /** What lookupOrder answers, by clientOrderId (absent = the venue never saw it). */
  readonly venueOrders: Map<string, Order>;
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
    snapshot() {
      return Promise.resolve(port.venueSnapshot);
    },
  };
  return port;
}
