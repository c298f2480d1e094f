import type { AlgoOrder, Asset, Execution, Loan, Order, Position, UserEvent } from '../model/index.ts';
import { positionKey, ZERO } from '../model/index.ts';
import type { ExecutionPort, VenueSnapshot } from './execution-port.ts';
import { LastingLookupFailure } from './lasting-lookup-failure.ts';
import { isNewerOrderUpdate } from './order-state-machine.ts';

/** The reason of an order reconciliation ended because the venue neither lists nor knows it. */
export const UNKNOWN_ORDER_REASON = 'reconciliation: the venue neither lists nor knows this order';

/** How the reason of an order reconciliation ended because its lookup failed for good begins. */
export const UNREADABLE_ORDER_REASON =
  'reconciliation: the venue no longer lists this order open and its lookup failed for good';

/** What Keel believes the venue holds: the other input of reconciliation. */
export interface LocalTradingState {
  /** Orders Keel holds as open (in-flight ones included). */
  readonly openOrders: readonly Order[];
  readonly positions: readonly Position[];
  readonly assets: readonly Asset[];
  readonly openAlgoOrders?: readonly AlgoOrder[];
  /** transactionIds of the executions Keel has already reported (at least those of the snapshot's window). */
  readonly seenExecutionIds?: ReadonlySet<string>;
  /** Outstanding margin loans (principal left). */
  readonly loans?: readonly Loan[];
  /**
   * The newest venue time Keel has seen on a position report or a fill, epoch ms: what a leg the
   * venue no longer lists is stamped flat at, so the correction is as new as every fill Keel
   * booked and older than any report the venue makes after the snapshot (the snapshot's own time
   * is Keel's clock, which may run ahead of the venue's, or be the wall clock while a paper venue
   * replays an earlier year). Absent: the snapshot's time.
   */
  readonly venueTime?: number;
}

/** The part of reconciliation that needs no I/O: corrective events, and orders to look up. */
export interface ReconciliationPlan {
  /** Events that make local state match the snapshot (adopted and newer orders, positions, assets, account). */
  readonly events: readonly UserEvent[];
  /** Local open orders the venue no longer lists: their fate must be looked up. */
  readonly vanished: readonly Order[];
  /** Local open algo orders the venue no longer lists: their fate must be looked up. */
  readonly vanishedAlgoOrders: readonly AlgoOrder[];
}

/** An order or algo order Keel holds open that the venue neither lists open nor knows (401018). */
export type UnknownToVenue =
  | { readonly kind: 'order'; readonly order: Order }
  | { readonly kind: 'algoOrder'; readonly algoOrder: AlgoOrder };

/** Where reconciliation looks up what the venue no longer lists: orders as the execution port does, and algo orders. */
export interface ReconciliationLookups extends Pick<ExecutionPort, 'lookupOrder'> {
  /**
   * Looks up an algo order, by its clientAlgoOrderId (by its algoOrderId when it has none).
   * @returns the venue's algo order (in whatever state: TRIGGERED with the order it sent,
   *   CANCELLED...), or undefined when the venue does not know it (401018)
   * @throws LastingLookupFailure when asking again will not help; any other error for a failure
   *   that may pass
   */
  readonly lookupAlgoOrder: (algoOrder: AlgoOrder) => Promise<AlgoOrder | undefined>;
}

/** How {@link reconcile} treats what changed while its snapshot was being taken. */
export interface ReconcileOptions {
  /**
   * Whether an update newer than the snapshot (a push that came after the snapshot was begun)
   * already settled what this corrective event is about: such an event is dropped rather than
   * let an older value overwrite the newer one, and a vanished order it concerns is not looked up.
   * Asked once more for every event just before the list is returned (after the lookups' waits).
   * Default: nothing is superseded.
   */
  readonly superseded?: (event: UserEvent) => boolean;
  /**
   * Whether an order the venue acknowledged, or an algo order, that the venue neither lists open
   * nor knows (its lookup answered 401018) is kept open for now rather than ended: a venue's read
   * side may lag its matching engine, so the caller looks it up again and ends it itself when the
   * venue still does not know it. Asked once per such lookup. Default: ended at once.
   */
  readonly keepUnknownOpen?: (unknown: UnknownToVenue) => boolean;
}

/**
 * Compares local state with a venue snapshot. Executions the snapshot lists that Keel has not
 * seen come first, oldest first, each once (so a strategy hears of a fill before the FILLED order
 * that depends on it). Venue open orders unknown locally are adopted,
 * known ones are emitted when the venue's is newer (per the order state machine); positions,
 * assets and account are replaced by the venue's (local ones the venue does not list come
 * back flat / zero; assets only when the snapshot lists them at all); algo orders are adopted, and local ones the venue no longer lists are left
 * to be looked up (they may have fired, or been cancelled). Loans, when the snapshot lists them,
 * are replaced by the venue's (a local one it does not list comes back paid off).
 * @param local - what Keel holds
 * @param snapshot - what the venue holds
 * @returns the corrective events, stamped with the snapshot time, and the vanished orders and
 *   algo orders
 */
export function planReconciliation(local: LocalTradingState, snapshot: VenueSnapshot): ReconciliationPlan {
  const stamp = { ts: snapshot.ts, recvTs: snapshot.ts };
  const events: UserEvent[] = missedExecutions(local, snapshot).map((execution) => ({
    kind: 'execution' as const,
    ...stamp,
    execution,
  }));
  // An order placed outside Keel may have no clientOrderId: '' names no order.
  const localByRef = new Map(
    local.openOrders.filter((o) => o.clientOrderId !== '').map((o) => [o.clientOrderId, o]),
  );
  const localById = new Map(local.openOrders.filter((o) => o.orderId !== '').map((o) => [o.orderId, o]));
  const seen = new Set<Order>();
  for (const order of snapshot.openOrders) {
    const known = localByRef.get(order.clientOrderId) ?? localById.get(order.orderId);
    if (known !== undefined) seen.add(known);
    if (known === undefined || isNewerOrderUpdate(known, order) || known.orderState.startsWith('PENDING_')) {
      events.push({ kind: 'order', ...stamp, order });
    }
  }
  const vanished = local.openOrders.filter((order) => !seen.has(order));

  const venueAlgo = new Set(snapshot.openAlgoOrders.map((algo) => algo.clientAlgoOrderId));
  for (const algoOrder of snapshot.openAlgoOrders) events.push({ kind: 'algoOrder', ...stamp, algoOrder });
  const vanishedAlgoOrders = (local.openAlgoOrders ?? []).filter(
    (algoOrder) => !venueAlgo.has(algoOrder.clientAlgoOrderId),
  );

  const venuePositions = new Set(snapshot.positions.map((p) => positionKey(p.sym, p.positionSide)));
  for (const position of snapshot.positions) events.push({ kind: 'position', ...stamp, position });
  const flatAt = flatStamp(local, events, snapshot.ts);
  for (const position of local.positions) {
    if (
      !venuePositions.has(positionKey(position.sym, position.positionSide)) &&
      !position.positionQty.isZero()
    ) {
      const flat = flatPosition(position, Math.max(flatAt, position.updateAt));
      events.push({ kind: 'position', ...stamp, position: flat });
    }
  }

  if (snapshot.assets !== undefined) {
    const venueCoins = new Set(snapshot.assets.map((asset) => asset.coin));
    for (const asset of snapshot.assets) events.push({ kind: 'asset', ...stamp, asset });
    for (const asset of local.assets) {
      if (!venueCoins.has(asset.coin)) events.push({ kind: 'asset', ...stamp, asset: zeroAsset(asset.coin) });
    }
  }
  if (snapshot.account !== undefined) events.push({ kind: 'account', ...stamp, account: snapshot.account });
  if (snapshot.loans !== undefined)
    events.push(...loanCorrections(local.loans ?? [], snapshot.loans, snapshot.ts));
  return { events, vanished, vanishedAlgoOrders };
}

/**
 * The venue's loans, and each local one it no longer lists paid off (principal and interest 0, as
 * a repay that closes a loan reports it).
 * @param local - the loans Keel holds
 * @param venue - the loans the venue lists (outstanding ones only)
 * @param ts - the events' time, epoch ms
 * @returns one `loan` event per loan the venue lists and per local loan it no longer lists
 */
export function loanCorrections(local: readonly Loan[], venue: readonly Loan[], ts: number): UserEvent[] {
  const stamp = { ts, recvTs: ts };
  const key = (loan: Loan): string => `${loan.exchange}:${loan.coin}`;
  const listed = new Set(venue.map(key));
  const paidOff = local
    .filter((loan) => !listed.has(key(loan)) && !loan.principal.isZero())
    .map((loan) => ({ ...loan, principal: ZERO, interest: ZERO, updateAt: ts }));
  return [...venue, ...paidOff].map((loan) => ({ kind: 'loan' as const, ...stamp, loan }));
}

/**
 * Reconciles local state with a venue snapshot: the plan's events, then each vanished order
 * looked up by its caller reference (by its orderId when it has none), then each vanished algo
 * order likewise. The venue's answer is emitted as it is (usually a final state: an algo order
 * that fired while Keel was not listening is TRIGGERED). An order the venue does not know is
 * emitted REJECTED when it was never acknowledged (PENDING_NEW) and CANCELLED otherwise, marked
 * `synthesized` so a later venue update supersedes it; an algo order it does not know is emitted
 * CANCELLED; but an acknowledged order or an algo order is left open instead when
 * {@link ReconcileOptions.keepUnknownOpen} says so. So is an order or algo order whose lookup
 * failed for good ({@link LastingLookupFailure}) ended, an order with a reason that says why: the
 * venue no longer lists it open, so keeping it open would hold a risk limit and its strategy for
 * ever against the venue's own word, and fail every later reconciliation the same way; its fills,
 * if any, come with the snapshot's executions and positions. Nothing is re-sent. Events an update
 * newer than the snapshot superseded are left out (see {@link ReconcileOptions.superseded}).
 * @param local - what Keel holds
 * @param snapshot - what the venue holds
 * @param lookups - where to look vanished orders and algo orders up
 * @param options - what counts as superseded by a newer update; what is kept open when unknown
 * @returns the corrective User Data events, in a deterministic order
 * @throws whatever the lookups throw, but a {@link LastingLookupFailure}
 */
export async function reconcile(
  local: LocalTradingState,
  snapshot: VenueSnapshot,
  lookups: ReconciliationLookups,
  options: ReconcileOptions = {},
): Promise<readonly UserEvent[]> {
  const superseded = options.superseded ?? (() => false);
  const keepUnknownOpen = options.keepUnknownOpen ?? (() => false);
  const stamp = { ts: snapshot.ts, recvTs: snapshot.ts };
  const plan = planReconciliation(local, snapshot);
  const events = [...plan.events];
  for (const order of plan.vanished) {
    if (superseded({ kind: 'order', ...stamp, order })) continue;
    const resolved = await vanishedOrderOutcome(order, lookups, snapshot.ts, keepUnknownOpen);
    if (resolved !== undefined) events.push({ kind: 'order', ...stamp, order: resolved });
  }
  for (const algoOrder of plan.vanishedAlgoOrders) {
    if (superseded({ kind: 'algoOrder', ...stamp, algoOrder })) continue;
    const resolved = await vanishedAlgoOrderOutcome(algoOrder, lookups, snapshot.ts, keepUnknownOpen);
    if (resolved !== undefined) events.push({ kind: 'algoOrder', ...stamp, algoOrder: resolved });
  }
  return events.filter((event) => !superseded(event));
}

/**
 * An order Keel holds open ended because the venue neither lists nor knows it (or cannot be asked
 * about it): REJECTED when it was never acknowledged (PENDING_NEW), else CANCELLED; marked
 * `synthesized`, so a later venue update of it supersedes this.
 * @param order - the order as Keel holds it
 * @param reason - why ({@link UNKNOWN_ORDER_REASON}, or one beginning {@link UNREADABLE_ORDER_REASON})
 * @param ts - the verdict's time, epoch ms
 * @returns the ended order
 */
export function unknownOrderEnded(order: Order, reason: string, ts: number): Order {
  return {
    ...order,
    orderState: order.orderState === 'PENDING_NEW' ? 'REJECTED' : 'CANCELLED',
    reason,
    synthesized: true,
    updateAt: ts,
  };
}

/**
 * An algo order Keel holds open ended because the venue neither lists nor knows it (or cannot be
 * asked about it): CANCELLED.
 * @param algoOrder - the algo order as Keel holds it
 * @param ts - the verdict's time, epoch ms
 * @returns the ended algo order
 */
export function unknownAlgoOrderEnded(algoOrder: AlgoOrder, ts: number): AlgoOrder {
  return { ...algoOrder, state: 'CANCELLED', updateAt: ts };
}

/**
 * What became of an order the venue no longer lists open: its lookup's answer, or Keel's verdict;
 * undefined when it is kept open (see {@link ReconcileOptions.keepUnknownOpen}).
 */
async function vanishedOrderOutcome(
  order: Order,
  lookups: ReconciliationLookups,
  ts: number,
  keepUnknownOpen: (unknown: UnknownToVenue) => boolean,
): Promise<Order | undefined> {
  try {
    const found = await lookups.lookupOrder(order.sym, order.clientOrderId, order.orderId);
    if (found !== undefined) return found;
    const acknowledged = order.orderState !== 'PENDING_NEW';
    if (acknowledged && keepUnknownOpen({ kind: 'order', order })) return undefined;
    return unknownOrderEnded(order, UNKNOWN_ORDER_REASON, ts);
  } catch (error) {
    if (!(error instanceof LastingLookupFailure)) throw error;
    return unknownOrderEnded(order, `${UNREADABLE_ORDER_REASON}: ${error.message}`, ts);
  }
}

/**
 * What became of an algo order the venue no longer lists open: its lookup's answer, or CANCELLED;
 * undefined when it is kept open (see {@link ReconcileOptions.keepUnknownOpen}).
 */
async function vanishedAlgoOrderOutcome(
  algoOrder: AlgoOrder,
  lookups: ReconciliationLookups,
  ts: number,
  keepUnknownOpen: (unknown: UnknownToVenue) => boolean,
): Promise<AlgoOrder | undefined> {
  try {
    const found = await lookups.lookupAlgoOrder(algoOrder);
    if (found !== undefined) return found;
    if (keepUnknownOpen({ kind: 'algoOrder', algoOrder })) return undefined;
    return unknownAlgoOrderEnded(algoOrder, ts);
  } catch (error) {
    if (!(error instanceof LastingLookupFailure)) throw error;
    return unknownAlgoOrderEnded(algoOrder, ts);
  }
}

/**
 * The snapshot's executions Keel has not seen, without duplicates, oldest first. Executions of the
 * same millisecond keep the reverse of the venue's list order (Keel's choice: venues list newest
 * first, as the paper venue does).
 */
function missedExecutions(local: LocalTradingState, snapshot: VenueSnapshot): Execution[] {
  const seen = new Set(local.seenExecutionIds);
  const missed: Execution[] = [];
  for (const execution of [...(snapshot.executions ?? [])].reverse()) {
    if (seen.has(execution.transactionId)) continue;
    seen.add(execution.transactionId);
    missed.push(execution);
  }
  return missed.sort((a, b) => a.timestamp - b.timestamp);
}

/**
 * The time a leg the venue no longer lists is stamped flat at: the newest venue time Keel has
 * seen, the snapshot's missed fills included (see {@link LocalTradingState.venueTime}), or the
 * snapshot's time when Keel keeps none.
 */
function flatStamp(local: LocalTradingState, events: readonly UserEvent[], snapshotTs: number): number {
  if (local.venueTime === undefined) return snapshotTs;
  let newest = local.venueTime;
  for (const event of events)
    if (event.kind === 'execution') newest = Math.max(newest, event.execution.timestamp);
  return newest;
}

function flatPosition(position: Position, ts: number): Position {
  return {
    ...position,
    positionQty: ZERO,
    positionValue: ZERO,
    positionMargin: ZERO,
    positionMM: ZERO,
    unrealizedPNL: ZERO,
    updateAt: ts,
  };
}

function zeroAsset(coin: string): Asset {
  return { coin, balance: ZERO, available: ZERO, frozen: ZERO, equity: ZERO, borrow: ZERO, upnl: ZERO };
}
