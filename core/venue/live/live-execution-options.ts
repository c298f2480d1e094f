import type { Logger } from 'pino';
import type { VenueRestClient } from '../rest/rest-client.ts';
import type { TimerPort } from '../timer-port.ts';
import type { PrivateWsClient } from '../ws/private-ws-client.ts';
import type { LostReplyPolicy } from './lost-reply-resolution.ts';
import type { ExecutionCatchUpPolicy } from './missed-executions.ts';
import type { ReconciliationRetryPolicy } from './reconciliation-runs.ts';

/** Options of the live execution client. */
export interface LiveExecutionOptions {
  readonly rest: VenueRestClient;
  readonly ws: PrivateWsClient;
  /** brokerClientId of the spec's PLACE_ORDER (US equities). */
  readonly brokerClientId?: string;
  readonly timer?: TimerPort;
  /**
   * The clock the events the client makes itself are stamped with (acks, algo order and loan
   * replies, reconciliation's corrections, lookups' answers, Keel's verdicts, refusals, stream
   * status): the session's clock, which its kernel takes every event's time for, so they sort
   * among the venue's own events. Default the venue's time as Keel estimates it (the `Date` header
   * of its replies, `rest.serverClock`), which is what a real venue's events carry. A paper session
   * passes its venue's replay clock: that venue's `Date` header is the wall clock in lockstep.
   * How long a lookup has waited, and the windows of catch-ups, stay on the venue's `Date` time.
   */
  readonly eventClock?: () => number;
  /** Makes a reference (clientOrderId) when an intent has none; default a UUID. */
  readonly newReference?: () => string;
  /**
   * Fewest "no such order" lookups before an order whose ack never came is declared REJECTED, or
   * one acknowledged (or an algo order) that a reconciliation found unknown to the venue is ended
   * CANCELLED. Default 3.
   */
  readonly lookupAttempts?: number;
  /** Wait before the second such lookup, ms; it doubles after each, up to `lookupBackoffCapMs`. Default 500. */
  readonly lookupSpacingMs?: number;
  /** Longest wait between such lookups, ms. Default 5 000. */
  readonly lookupBackoffCapMs?: number;
  /**
   * How long, after its ack was due, an order the venue does not know stays pending (looked up
   * again and again) before it is declared REJECTED, ms; also how long after the first "not
   * found" an acknowledged order or an algo order a reconciliation found unknown to the venue stays
   * open before it is ended CANCELLED. Keel's choice, default 30 000: a real
   * venue's order entry can lag seconds behind the ack timeout under load (gateway queues, a busy
   * matching engine), and an order declared rejected too early is an orphan live order; 30 s is
   * far beyond such lags yet short enough that a strategy is not left waiting for minutes.
   */
  readonly unackedGiveUpMs?: number;
  /**
   * How long a modify or cancel of an order whose place the venue has not answered waits for that
   * answer (or Keel's lookups' word) before it is sent anyway, ms. Keel's choice, default 10 000
   * (`DEFAULT_HELD_COMMAND_WAIT_MS`): a late ack still comes first, but a kill switch's cancel is
   * not kept off the venue while the lookups of a lost ack fail or keep saying "not found". A
   * session takes it from its config's `venue.heldCommandWaitMs`.
   */
  readonly heldCommandWaitMs?: number;
  /** How a REST command whose reply was lost (timeout, network error) is looked up. */
  readonly lostReplyLookups?: Partial<LostReplyPolicy>;
  /** How executions missed while the socket was down are fetched after a reconnect. */
  readonly executionCatchUp?: Partial<ExecutionCatchUpPolicy>;
  /**
   * How a failed reconciliation (snapshot, order lookup or execution catch-up) is tried again, and
   * how long order states are held back for fills a failing catch-up could not fetch (or one that
   * left out rows it could not decode).
   */
  readonly reconciliationRetry?: Partial<ReconciliationRetryPolicy>;
  /**
   * Period of the reconciliation run while the private stream is up and reconciled, ms, so a User
   * Data push the venue lost without closing the socket is caught up within it; 0 for none.
   * Default: none (a session passes `venue.reconcileEveryMs`).
   */
  readonly reconcileEveryMs?: number;
  /**
   * What keeps trading stopped once a reconciliation finished (e.g. `HALTED (kill switch: daily
   * loss limit)`), named in its log line instead of "trading resumes"; undefined while nothing
   * does. Default: nothing does. A session passes its risk gate's status.
   */
  readonly tradingStopped?: () => string | undefined;
  readonly logger?: Logger;
}
