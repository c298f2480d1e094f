import type { Observable } from 'rxjs';
import { type Kernel, monotonicNow, UnprotectiveOrders } from '../../core/kernel/index.ts';
import {
  type AlgoOrder,
  type Intent,
  isFinalOrderState,
  type Order,
  type PositionSide,
  type UserEvent,
} from '../../core/model/index.ts';
import type { InFlightCommand } from './in-flight-commands.ts';
import type { RunMetrics } from './run-metrics.ts';

/** Where a stopping session's cancels go, and where the venue's answers come back. */
export interface StopExecution {
  submit(command: never): void;
  /** The venue's User Data: answers to the algo cancels (the venue pushes no algo updates). */
  readonly events: Observable<UserEvent>;
  /**
   * Looks an order up at the venue (undefined when it does not know it): an order a cancel left
   * open is asked after, since the cancel may have found it already final (a fill whose push was
   * lost). Without it, such an order is only cancelled again.
   */
  lookupOrder?(sym: string, clientOrderId: string): Promise<Order | undefined>;
}

/** The time a stopping session's cancels are paced by: a monotonic clock, unless a test gives its own. */
export interface StopClock {
  /** @returns ms on a clock that does not step (only differences are read), so a wall-clock step neither ends the cancels early nor keeps them going past the deadline */
  now(): number;
  /** @returns after `ms` */
  sleep(ms: number): Promise<void>;
}

const REAL: StopClock = { now: monotonicNow, sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };

/** How long an attempt waits before the cancels go again, doubling from the first (Keel's choice). */
const FIRST_RETRY_MS = 250;
const LONGEST_RETRY_MS = 2_000;
const POLL_MS = 50;

/** An order or algo order that protects a position leg (reduce-only, a hedge leg's close, a take-profit / stop-loss). */
export interface ProtectiveAtStop {
  /** Its clientOrderId or clientAlgoOrderId. */
  readonly ref: string;
  readonly sym: string;
  /** The leg it protects. */
  readonly positionSide: PositionSide;
}

/** What the cancels at stop achieved. */
export interface StopCancelOutcome {
  /** How many times the cancels were sent. */
  readonly attempts: number;
  /** References of the orders and algo orders that may still be open on the venue (none: all cancelled). */
  readonly leftOpen: readonly string[];
  /** The protective orders of open positions left working on purpose (`shutdown.keepProtectiveOrders`), as open at the end. */
  readonly kept: readonly ProtectiveAtStop[];
  /** The protective orders of positions open at the time that were cancelled (`shutdown.keepProtectiveOrders` false). */
  readonly unprotected: readonly ProtectiveAtStop[];
}

/** An order as a stopping session's record holds it: enough to cancel it and to tell whether it protects a position. */
export type OrderAtStop = Pick<Order, 'sym' | 'clientOrderId' | 'side' | 'positionSide' | 'reduceOnly'>;

/** What a stopping session's record says is open on the venue, or on its way there. */
export interface OpenAtStopRecord {
  /** Orders the venue still holds open, by the session's own record. */
  readonly openOrders: () => readonly OrderAtStop[];
  /** Commands sent whose outcome is not known yet: an order among them may be live a moment later. */
  readonly inFlight: () => readonly InFlightCommand[];
  /**
   * Keep the protective orders of the positions open at each attempt (`shutdown.keepProtectiveOrders`):
   * reduce-only orders, a hedge leg's closing orders and take-profit / stop-loss algo orders that
   * trade against an open leg. Those of a flat leg are cancelled like the others.
   */
  readonly keepProtective: boolean;
}

/**
 * Waits until no command sent is still in flight (each answered, or the client's lookup of a lost
 * answer settled it), or `timeoutMs` passed: what the session then reports as open, or cancels,
 * includes the orders still on their way when the strategies stopped.
 * @param inFlight - the commands whose outcome is not known yet
 * @param timeoutMs - how long to wait at most
 * @param clock - a monotonic clock by default
 * @returns when none is in flight or the time is up
 */
export async function awaitInFlightOnStop(
  inFlight: () => readonly InFlightCommand[],
  timeoutMs: number,
  clock: StopClock = REAL,
): Promise<void> {
  const deadline = clock.now() + timeoutMs;
  while (inFlight().length > 0 && clock.now() < deadline) await clock.sleep(POLL_MS);
}

/**
 * Cancels the open orders and algo orders of a stopping session (`shutdown.cancelAllOrders`),
 * the strategies' own and those the session found on the venue at startup, all but the
 * protective orders of open positions when `record.keepProtective` says so (so a position the
 * session leaves open keeps its stop-loss): one cancelOrders intent per sym with open orders (the
 * whole sym, or the listed orders when some on it are kept) and one cancelAlgoOrder per open algo
 * order (whose answer says it is gone), through the risk gate. What is still open is cancelled
 * again, with backoff (250 ms doubling to 2 s), until nothing is open or `timeoutMs` has passed:
 * a venue that cannot be reached for a moment does not leave orders working. Commands still in
 * flight are waited for within the same time, and an order or algo order they turn out to have
 * placed is cancelled like the others. Which orders protect an open leg is judged at each
 * attempt, on the kernel's positions then. An order still open after an attempt is looked up once
 * (when `execution.lookupOrder` is given) while the cancels go again: a cancel the venue
 * accepted without naming it (`{"orderIds":[]}`: nothing to cancel) or refused as not found may
 * have met it already final, a fill or cancel whose push was lost; the venue's final word ends it.
 * @param kernel - the stopped kernel (its state lists the open algo orders and the positions)
 * @param gate - the session's risk gate
 * @param execution - where approved commands go, and its User Data
 * @param record - the open orders and the commands in flight, by the session's own record
 * @param timeoutMs - how long to keep trying
 * @param clock - a monotonic clock by default
 * @returns how many attempts were made and what may still be open
 */
export async function cancelOpenOrdersOnStop(
  kernel: Kernel,
  gate: ReturnType<RunMetrics['timingGate']>,
  execution: StopExecution,
  record: OpenAtStopRecord,
  timeoutMs: number,
  clock: StopClock = REAL,
): Promise<StopCancelOutcome> {
  const { inFlight, keepProtective } = record;
  const judge = new UnprotectiveOrders((sym, leg) => kernel.state.positionQty(sym, leg));
  // Orders a lookup found final at the venue, and those looked up (once each).
  const endedAtVenue = new Set<string>();
  const lookedUp = new Set<string>();
  const allOpenOrders = () => record.openOrders().filter((o) => !endedAtVenue.has(o.clientOrderId));
  const lookUpStillOpen = (): void => {
    const lookupOrder = execution.lookupOrder?.bind(execution);
    if (lookupOrder === undefined) return;
    for (const order of allOpenOrders()) {
      if (lookedUp.has(order.clientOrderId)) continue;
      lookedUp.add(order.clientOrderId);
      lookupOrder(order.sym, order.clientOrderId).then(
        (found) => {
          if (found !== undefined && isFinalOrderState(found.orderState))
            endedAtVenue.add(order.clientOrderId);
        },
        () => undefined,
      );
    }
  };
  // With keepProtective the protective orders of an open leg stay; every other order is cancelled.
  const openOrders = () => (keepProtective ? allOpenOrders().filter((o) => judge.order(o)) : allOpenOrders());
  // Algo orders the venue said are gone (an update that is no longer NEW, or its refusal of the cancel).
  const gone = new Set<string>();
  const algoTargets = new Map<string, string>();
  const algos: AlgoOrder[] = [...kernel.state.openAlgoOrders()];
  const answers = execution.events.subscribe((event) => {
    if (event.kind === 'algoOrder') {
      const id = event.algoOrder.clientAlgoOrderId;
      if (event.algoOrder.state !== 'NEW') gone.add(id);
      // One placed by a command still in flight at the stop: the stopped kernel does not list it.
      else if (!algos.some((a) => a.clientAlgoOrderId === id)) algos.push(event.algoOrder);
    }
    // A venue code is the venue's word (e.g. not found); code 0 or below means it was not reached.
    const target = event.kind === 'commandRejected' ? algoTargets.get(event.ref) : undefined;
    if (target !== undefined && event.kind === 'commandRejected' && event.code > 0) gone.add(target);
  });
  const allOpenAlgos = () => algos.filter((a) => !gone.has(a.clientAlgoOrderId));
  const openAlgos = () =>
    keepProtective ? allOpenAlgos().filter((a) => judge.algoOrder(a)) : allOpenAlgos();
  // The protective orders of open legs cancelled all the same (keepProtective false), for the warning.
  const unprotected = new Map<string, ProtectiveAtStop>();
  const nothingOpen = () => openOrders().length === 0 && openAlgos().length === 0;
  const done = () => nothingOpen() && inFlight().length === 0;
  const deadline = clock.now() + timeoutMs;
  let attempts = 0;
  while (!done() && clock.now() < deadline) {
    if (nothingOpen()) {
      await clock.sleep(POLL_MS);
      continue;
    }
    if (attempts > 0) lookUpStillOpen();
    attempts++;
    const suffix = attempts === 1 ? '' : `-${attempts}`;
    const toCancel = openOrders();
    const algosToCancel = openAlgos();
    if (!keepProtective) {
      for (const o of toCancel)
        if (!judge.order(o)) unprotected.set(o.clientOrderId, legOf(o.clientOrderId, o));
      for (const a of algosToCancel)
        if (!judge.algoOrder(a)) unprotected.set(a.clientAlgoOrderId, legOf(a.clientAlgoOrderId, a));
    }
    const cancelling = new Set(toCancel.map((o) => o.clientOrderId));
    // A sym with a kept order on it gets the list of the others; any other sym, the whole sym.
    const keepsSome = new Set(
      allOpenOrders().flatMap((o) => (cancelling.has(o.clientOrderId) ? [] : [o.sym])),
    );
    const bySym = new Map<string, string[]>();
    for (const order of toCancel) {
      const targets = bySym.get(order.sym);
      if (targets === undefined) bySym.set(order.sym, [order.clientOrderId]);
      else targets.push(order.clientOrderId);
    }
    const intents: Intent[] = [
      ...[...bySym].map(
        ([sym, targets]): Intent => ({
          kind: 'cancelOrders',
          ref: `keel-stop-${sym}${suffix}`,
          sym,
          ...(keepsSome.has(sym) ? { targets } : {}),
        }),
      ),
      ...algosToCancel.map((algo, i): Intent => {
        const ref = `keel-stop-algo-${i + 1}${suffix}`;
        algoTargets.set(ref, algo.clientAlgoOrderId);
        return { kind: 'cancelAlgoOrder', ref, target: algo.clientAlgoOrderId, sym: algo.sym };
      }),
    ];
    for (const intent of intents) {
      const decision = gate.evaluate({ strategyId: 'keel', intent }, kernel.state);
      if (decision.kind === 'approved') execution.submit(decision.command as never);
    }
    const retryAt = Math.min(
      clock.now() + Math.min(FIRST_RETRY_MS * 2 ** (attempts - 1), LONGEST_RETRY_MS),
      deadline,
    );
    while (!done() && clock.now() < retryAt) await clock.sleep(POLL_MS);
  }
  answers.unsubscribe();
  const leftOpen = [
    ...openOrders().map((o) => o.clientOrderId),
    ...openAlgos().map((a) => a.clientAlgoOrderId),
  ];
  const kept = keepProtective
    ? [
        ...allOpenOrders()
          .filter((o) => !judge.order(o))
          .map((o) => legOf(o.clientOrderId, o)),
        ...allOpenAlgos()
          .filter((a) => !judge.algoOrder(a))
          .map((a) => legOf(a.clientAlgoOrderId, a)),
      ]
    : [];
  return { attempts, leftOpen, kept, unprotected: [...unprotected.values()] };
}

/** A protective order as the stop's outcome names it: its reference and the leg it protects. */
function legOf(ref: string, order: Pick<Order, 'sym' | 'positionSide'>): ProtectiveAtStop {
  return { ref, sym: order.sym, positionSide: order.positionSide };
}

/**
 * The outcome of the cancels at stop, sent again once the strategies' closes are in (a leg they
 * took flat leaves its protective orders nothing to protect, so those go then).
 * @param first - the cancels before the closes
 * @param second - the cancels after them
 * @returns attempts of both, what the second left open and kept, what either cancelled unprotecting
 */
export function afterClosesOutcome(first: StopCancelOutcome, second: StopCancelOutcome): StopCancelOutcome {
  const unprotected = new Map([...first.unprotected, ...second.unprotected].map((p) => [p.ref, p]));
  return {
    attempts: first.attempts + second.attempts,
    leftOpen: second.leftOpen,
    kept: second.kept,
    unprotected: [...unprotected.values()],
  };
}

/**
 * The warning of a stop whose cancels did not all go through, for the log, the summary and
 * `result.meta.warnings`.
 * @param outcome - what the cancels at stop achieved
 * @param timeoutMs - `shutdown.timeoutMs`
 * @returns the sentence, or undefined when nothing was left open
 */
export function stopCancelWarning(outcome: StopCancelOutcome, timeoutMs: number): string | undefined {
  const n = outcome.leftOpen.length;
  if (n === 0) return undefined;
  const shown = outcome.leftOpen.slice(0, 10).join(', ') + (n > 10 ? `, and ${n - 10} more` : '');
  return `${n} order${n === 1 ? '' : 's'} may still be open on the venue: ${shown} (shutdown.cancelAllOrders could not cancel ${n === 1 ? 'it' : 'them'} in ${outcome.attempts} attempt${outcome.attempts === 1 ? '' : 's'} within shutdown.timeoutMs ${timeoutMs} ms; check the venue)`;
}
