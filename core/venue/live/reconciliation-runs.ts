import type { Logger } from 'pino';
import {
  type ExecutionPort,
  forgottenOrders,
  forgottenOrdersWarning,
  type LocalTradingState,
  type ReconcileOptions,
  type ReconciliationLookups,
  reconcile,
  type VenueSnapshot,
} from '../../execution/index.ts';
import { type Dec, type Order, type OrderUpdateEvent, type UserEvent, ZERO } from '../../model/index.ts';
import { monotonicOf, type TimerPort } from '../timer-port.ts';
import { type LocalTradingView, openOrderKey } from './local-trading-view.ts';
import type { ExecutionCatchUp, LeftOutExecution } from './missed-executions.ts';

/** How a reconciliation that failed is tried again. */
export interface ReconciliationRetryPolicy {
  /** Wait before the first retry, ms; it doubles after each failure, up to `capMs`. */
  readonly baseMs: number;
  /** Longest wait between retries, ms. */
  readonly capMs: number;
  /**
   * Longest time, ms, that the order corrections depending on fills not fetched yet are held back
   * for the retries of a failing execution catch-up (or one that left out rows it could not
   * decode), counted from its first failure; then they are emitted without those fills, with a
   * warning.
   */
  readonly holdMs: number;
}

/**
 * The default retry policy. Keel's choice: 1 s, then 2, 4... up to 30 s. A failed snapshot,
 * order lookup or execution catch-up would otherwise leave the local view wrong until the next
 * reconnect, which may be hours away; a venue that answers again within a second or two is
 * caught up at once, and one that stays down costs only two REST calls a minute. Order
 * corrections are held for the fills for 30 s, as long as an unacknowledged order is waited for:
 * a catch-up rate-limited for a while still gets fills reported before the order states, and one
 * that keeps failing does not keep a filled order open for ever (holding a risk limit and its
 * strategy).
 */
export const DEFAULT_RECONCILIATION_RETRY: ReconciliationRetryPolicy = {
  baseMs: 1_000,
  capMs: 30_000,
  holdMs: 30_000,
};

/** What reconciliation runs need from the live execution client. */
export interface ReconciliationRunsOptions {
  /** The client's local view. */
  readonly view: LocalTradingView;
  /** Missed executions. */
  readonly catchUp: ExecutionCatchUp;
  /** The venue's open orders, algo orders, positions, assets and account, over REST. */
  readonly snapshot: () => Promise<VenueSnapshot>;
  /** Looks a vanished order up (see `ExecutionPort.lookupOrder`; undefined when the venue does not know it). */
  readonly lookupOrder: ExecutionPort['lookupOrder'];
  /** Looks a vanished algo order up (see `ReconciliationLookups.lookupAlgoOrder`). */
  readonly lookupAlgoOrder: ReconciliationLookups['lookupAlgoOrder'];
  /**
   * Whether an acknowledged order or an algo order the venue neither lists nor knows is kept open
   * for now (see `ReconcileOptions.keepUnknownOpen`). Default: ended at once.
   */
  readonly keepUnknownOpen?: ReconcileOptions['keepUnknownOpen'];
  /** Passes a corrective event on (and folds it into the view as a correction). */
  readonly emitCorrection: (event: UserEvent) => void;
  /** Runs after each reconciliation that got its snapshot (the unacked orders are looked up again). */
  readonly afterReconciliation: () => void;
  /**
   * Runs after a reconciliation that completed (snapshot, corrections and missed executions) with
   * no other one asked for meanwhile: Keel's view is the venue's again. Given the corrections it
   * emitted, and what Keel held when it began.
   */
  readonly reconciled?: (corrections: readonly UserEvent[], before: LocalTradingState) => void;
  /**
   * Runs when a reconciliation ended orders the venue had acknowledged but no longer knows (see
   * `forgottenOrders`), with the warning that says so.
   */
  readonly forgotten?: (warning: string) => void;
  /**
   * Runs when order corrections held back for fills the execution catch-up could not fetch were
   * emitted without them, the hold's time up (see `ReconciliationRetryPolicy.holdMs`), with the
   * warning that says so.
   */
  readonly unfetchedFills?: (warning: string) => void;
  /**
   * Runs when an execution catch-up left out rows Keel could not decode, not warned of before,
   * with the warning that names them (they are missing from Keel's fills).
   */
  readonly leftOutExecutions?: (warning: string) => void;
  readonly timer: TimerPort;
  readonly retry: ReconciliationRetryPolicy;
  readonly logger: Logger;
  /**
   * Told after each reconciliation that failed or stayed incomplete (none newer asked for), with
   * why Keel's orders and positions stay unreconciled, as a sentence part naming since when (on
   * the timer): the execution catch-up failing, else the reconciliation itself.
   */
  readonly stillStale?: (reason: string) => void;
}

interface Waiter {
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Runs reconciliations one at a time: the snapshot (begun with the view noting newer updates),
 * the executions missed, the corrections (minus those a newer update superseded), then the
 * unacked orders looked up. A reconciliation asked for while one runs follows it (the running one's
 * snapshot may predate the reconnect). One that failed (snapshot, lookup or execution catch-up) is
 * tried again with a growing backoff on the injected timer, not only at the next reconnect. When
 * the execution catch-up failed, an order correction that executed more than Keel holds the order
 * executed is held back for the retry that fetches its fills, so fills still come before the order
 * states that depend on them; but not for longer than the retry policy's `holdMs` from the
 * catch-up's first failure (one failing for good, the venue's history endpoint down, would keep a
 * filled order open for ever): then it is emitted without them, with a warning. A catch-up that
 * left out execution rows Keel could not decode is incomplete the same way (the row may be the
 * fill an order state depends on): such a correction, one executed beyond Keel's fills and the
 * catch-up's, is held and retried likewise; the rows are named in a warning once each.
 */
export class ReconciliationRuns {
  private running = false;
  private again = false;
  private stopped = false;
  private failures = 0;
  /**
   * When the execution catch-up began failing (or leaving rows out), on the timer: epoch ms (named
   * in the stale reason) and its monotonic reading (how long fills are held); undefined while it
   * succeeds.
   */
  private catchUpFailingSince: { readonly at: number; readonly monotonic: number } | undefined;
  /** When reconciliations began failing (a snapshot or lookup threw), on the timer; undefined after one that did not. */
  private failingSince: number | undefined;
  /** Keys of the execution rows left out that a warning named already. */
  private readonly warnedLeftOut = new Set<string>();
  private cancelRetry: () => void = () => undefined;
  private waiters: Waiter[] = [];

  /** @param options - the view, REST calls, where corrections go, timer and retry policy */
  constructor(private readonly options: ReconciliationRunsOptions) {}

  /**
   * Asks for a reconciliation (after a login, or a retry): one starts now, or after the one
   * running. A retry waiting is replaced by it.
   * @returns when a reconciliation begun after this call emitted its corrections; a rejection
   *   when its snapshot or an order lookup failed (a retry is then scheduled); the execution
   *   catch-up failing does not reject, the corrections being out, but is retried too
   */
  request(): Promise<void> {
    this.cancelRetry();
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    if (this.running) this.again = true;
    else void this.runUntilCurrent();
    return done;
  }

  /** Stops: no retry is scheduled any more and no correction is emitted. */
  stop(): void {
    this.stopped = true;
    this.cancelRetry();
    for (const waiter of this.waiters.splice(0)) waiter.resolve();
  }

  private async runUntilCurrent(): Promise<void> {
    this.running = true;
    try {
      do {
        this.again = false;
        const waiters = this.waiters.splice(0);
        let complete = false;
        let failure: unknown;
        try {
          complete = await this.runOnce();
          this.failingSince = undefined;
          for (const waiter of waiters) waiter.resolve();
        } catch (error) {
          failure = error;
          this.failingSince ??= this.options.timer.now();
          this.options.logger.error({ err: String(error) }, 'reconciliation failed; it will be tried again');
          for (const waiter of waiters) waiter.reject(error);
        }
        if (complete) this.failures = 0;
        else if (!this.again) {
          this.scheduleRetry();
          if (!this.stopped) this.options.stillStale?.(this.staleReason(failure));
        }
      } while (this.again && !this.stopped);
    } finally {
      this.running = false;
    }
  }

  /**
   * @returns false when the executions missed could not be fetched, or rows were left out while
   *   corrections are held for them (the others are out)
   */
  private async runOnce(): Promise<boolean> {
    if (this.stopped) return true;
    const { view, catchUp } = this.options;
    const mark = view.beginSnapshot();
    try {
      const snapshot = await this.options.snapshot();
      // Fetched after the snapshot, so every fill its order states depend on is among them.
      const listing = await catchUp.recent();
      const executions = listing?.executions;
      const leftOut = listing?.leftOut ?? [];
      const complete = listing !== undefined && leftOut.length === 0;
      if (complete) this.catchUpFailingSince = undefined;
      else
        this.catchUpFailingSince ??= {
          at: this.options.timer.now(),
          monotonic: monotonicOf(this.options.timer),
        };
      const full = executions === undefined ? snapshot : { ...snapshot, executions };
      const local = view.state();
      const reconciled = await reconcile(
        local,
        full,
        { lookupOrder: this.options.lookupOrder, lookupAlgoOrder: this.options.lookupAlgoOrder },
        {
          superseded: (event) => view.updatedSince(event, mark),
          ...(this.options.keepUnknownOpen === undefined
            ? {}
            : { keepUnknownOpen: this.options.keepUnknownOpen }),
        },
      );
      if (this.stopped) return true;
      this.warnLeftOut(leftOut, snapshot.ts);
      const { corrections, holding } = complete
        ? { corrections: reconciled, holding: false }
        : this.heldForFills(reconciled, local, snapshot.ts, listing === undefined ? 'failed' : 'leftOut');
      for (const event of corrections) this.options.emitCorrection(event);
      const forgotten = forgottenOrders(corrections);
      if (forgotten.length > 0) this.options.forgotten?.(forgottenOrdersWarning(forgotten, snapshot.ts));
      this.options.afterReconciliation();
      if (listing === undefined || holding) return false;
      if (!complete) {
        // Nothing waits on the rows left out any more: the next catch-up is not widened for them.
        catchUp.acceptLeftOut();
        this.catchUpFailingSince = undefined;
      }
      if (!this.again) this.options.reconciled?.(corrections, local);
      return true;
    } finally {
      view.endSnapshot();
    }
  }

  /**
   * The corrections to emit while the executions missed could not all be fetched: without the
   * order states that depend on fills Keel has not reported (nor is reporting with them), until
   * the hold's time is up; then all of them, the warning given for those orders.
   * @returns the corrections to emit, and whether any is held back
   */
  private heldForFills(
    corrections: readonly UserEvent[],
    local: LocalTradingState,
    ts: number,
    why: CatchUpShortfall,
  ): { readonly corrections: readonly UserEvent[]; readonly holding: boolean } {
    const held = dependingOnUnreportedFills(corrections, local);
    if (held.length === 0) return { corrections, holding: false };
    const now = monotonicOf(this.options.timer);
    const waitedMs = now - (this.catchUpFailingSince?.monotonic ?? now);
    if (waitedMs < this.options.retry.holdMs) {
      const heldBack = new Set<UserEvent>(held);
      return { corrections: corrections.filter((event) => !heldBack.has(event)), holding: true };
    }
    this.options.unfetchedFills?.(
      unfetchedFillsWarning(
        held.map((event) => event.order),
        waitedMs,
        ts,
        why,
      ),
    );
    return { corrections, holding: false };
  }

  /** Names the execution rows left out that no warning named yet, in one warning. */
  private warnLeftOut(leftOut: readonly LeftOutExecution[], ts: number): void {
    const fresh = leftOut.filter((row) => !this.warnedLeftOut.has(row.key));
    if (fresh.length === 0) return;
    for (const row of fresh) this.warnedLeftOut.add(row.key);
    this.options.leftOutExecutions?.(leftOutExecutionsWarning(fresh, ts));
  }

  /** Why the last reconciliation left Keel's view unreconciled, naming since when. */
  private staleReason(failure: unknown): string {
    const retried = 'retried with a growing backoff';
    if (failure === undefined && this.catchUpFailingSince !== undefined)
      return (
        `the execution catch-up has kept failing since ${new Date(this.catchUpFailingSince.at).toISOString()} ` +
        `(or leaving out rows Keel cannot read), so fills made meanwhile are not known yet; ${retried}`
      );
    const since = new Date(this.failingSince ?? this.options.timer.now()).toISOString();
    return `its reconciliation has kept failing since ${since} (${String(failure)}); ${retried}`;
  }

  private scheduleRetry(): void {
    if (this.stopped) return;
    const { baseMs, capMs } = this.options.retry;
    const delay = Math.min(capMs, baseMs * 2 ** Math.min(this.failures, 30));
    this.failures++;
    this.options.logger.warn(
      { delayMs: delay, failures: this.failures },
      'reconciliation incomplete: retrying',
    );
    this.cancelRetry = this.options.timer.setTimer(() => {
      this.cancelRetry = () => undefined;
      this.request().catch(() => undefined);
    }, delay);
  }
}

/**
 * The order states among the corrections that depend on fills Keel has not reported: an order the
 * venue shows executed further than Keel holds it plus the fills among the corrections (an order
 * Keel does not hold: further than those fills).
 * @param corrections - a reconciliation's corrections
 * @param local - the local state it compared with
 * @returns those corrections
 */
function dependingOnUnreportedFills(
  corrections: readonly UserEvent[],
  local: LocalTradingState,
): OrderUpdateEvent[] {
  const executed = new Map<string, Dec>();
  for (const order of local.openOrders) executed.set(openOrderKey(order), order.executedQty);
  for (const event of corrections) {
    if (event.kind !== 'execution') continue;
    const key = openOrderKey(event.execution);
    executed.set(key, (executed.get(key) ?? ZERO).plus(event.execution.quantity));
  }
  return corrections.filter(
    (event): event is OrderUpdateEvent =>
      event.kind === 'order' && event.order.executedQty.gt(executed.get(openOrderKey(event.order)) ?? ZERO),
  );
}

/** Why the executions missed are not all known: the catch-up failed, or left out rows it could not decode. */
type CatchUpShortfall = 'failed' | 'leftOut';

/** @returns the first five of `items` joined, and how many more */
function firstFive(items: readonly string[]): string {
  return items.length > 5 ? `${items.slice(0, 5).join(', ')} and ${items.length - 5} more` : items.join(', ');
}

/**
 * The warning for order states emitted without the fills they depend on.
 * @param orders - the orders, at least one
 * @param waitedMs - how long the execution catch-up had been failing (or leaving rows out)
 * @param ts - the snapshot's time, epoch ms
 * @param why - what the last catch-up lacked
 * @returns one sentence
 */
function unfetchedFillsWarning(
  orders: readonly Order[],
  waitedMs: number,
  ts: number,
  why: CatchUpShortfall,
): string {
  const shown = firstFive(orders.map((order) => order.clientOrderId || order.orderId));
  const one = orders.length === 1;
  const lacking =
    why === 'failed'
      ? 'could not be fetched'
      : 'came with rows Keel could not decode (named in another warning)';
  return (
    `${orders.length} order${one ? '' : 's'} (${shown}) executed further than the fills Keel reported, and the ` +
    `executions made while the socket was down ${lacking} for ${Math.round(waitedMs / 1000)} s: ` +
    `at the reconciliation of ${new Date(ts).toISOString()} Keel reported ${one ? 'its state' : 'their states'} ` +
    `without ${one ? 'its' : 'their'} fills (the positions and balances are the venue's); the fills are ` +
    'reported if a later catch-up fetches them'
  );
}

/**
 * The warning for execution rows a catch-up left out.
 * @param rows - the rows, at least one
 * @param ts - the snapshot's time, epoch ms
 * @returns one sentence
 */
function leftOutExecutionsWarning(rows: readonly LeftOutExecution[], ts: number): string {
  const named = rows.map((row) => {
    const order = row.clientOrderId ?? row.orderId;
    const ofOrder = order === undefined ? '' : ` of order ${order}`;
    return row.transactionId === undefined
      ? `an unreadable row${ofOrder}`
      : `transactionId ${row.transactionId}${ofOrder}`;
  });
  const one = rows.length === 1;
  return (
    `${rows.length} execution row${one ? '' : 's'} (${firstFive(named)}) listed by the venue after a reconnect ` +
    `could not be decoded and ${one ? 'was' : 'were'} left out (logged and counted malformed) at the ` +
    `reconciliation of ${new Date(ts).toISOString()}: Keel reports no fill for ${one ? 'it' : 'them'}, so the ` +
    `result's fills, trades and PnL may miss ${one ? 'it' : 'them'} (the positions and balances are the venue's)`
  );
}
