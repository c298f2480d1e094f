import type { AlgoOrderUpdateEvent, OrderUpdateEvent } from '../model/index.ts';
import { isFinalAlgoState, isFinalOrderState } from '../model/index.ts';
import { keptProtectiveOrders } from './kept-protective-orders.ts';
import type { Kernel } from './kernel.ts';
import type { IntentGate } from './kernel-options.ts';
import { orderKey } from './order-keys.ts';
import { cancelStrategyOrders } from './strategy-order-sweep.ts';

/**
 * A kill switch's sweep on a trip to HALTED ({@link cancelStrategyOrders} of every order but the
 * protective ones of open positions, the `unprotective` scope a fault's sweep has: a stop-loss
 * stays, so the position the halt freezes is not left without it), kept up
 * while the strategies' trading stays HALTED: an open order or algo order of theirs that becomes
 * known after the trip is cancelled too, at once, before its strategy hears of it, unless it protects. It was on its
 * way at the trip, since nothing but cancels passes after it: a take-profit or stop-loss the venue
 * attached when an entry filled, whose report comes after the fill that tripped the switch, or an
 * order an algo order placed as it fired. Left alone, it would trade into the halted portfolio.
 * Each later sweep's references are `<refTag>-l<n>-...`; an order or algo order a sweep of the
 * trip already asked to cancel is not asked again. The sweep stops at the first order news once no
 * strategy is HALTED any more (the gate's `status`; a gate without one is taken to stay HALTED).
 * @param kernel - the run's kernel
 * @param gate - the run's risk gate
 * @param strategyIds - whose orders to cancel
 * @param refTag - the start of the commands' references, e.g. `keel-halt-3` (unique per trip)
 * @param counted - told how many orders and algo orders the trip's sweeps asked to cancel so far,
 *   and every protective order they kept ({@link keptProtectiveOrders}; one that filled since
 *   too): after the trip's sweep, then after each later one that cancelled or kept one more
 * @returns stops the sweep (the run ended)
 */
export function sweepWhileHalted(
  kernel: Kernel,
  gate: IntentGate,
  strategyIds: readonly string[],
  refTag: string,
  counted: (cancelled: number, kept: readonly string[]) => void,
): () => void {
  const swept = new Set<string>();
  const kept = new Set<string>();
  /** Adds the protective orders kept now to those kept before; true when there is a new one. */
  const keptMore = (): boolean => {
    const before = kept.size;
    for (const ref of keptProtectiveOrders(kernel, strategyIds)) kept.add(ref);
    return kept.size > before;
  };
  let cancelled = cancelStrategyOrders(kernel, strategyIds, refTag, 'unprotective', swept);
  keptMore();
  counted(cancelled, [...kept]);
  const owners = new Set(strategyIds);
  const halted = (id: string): boolean => (gate.status?.(id).state ?? 'HALTED') === 'HALTED';
  let later = 0;
  const subscription = kernel.ordersFolded.subscribe((event) => {
    if (!strategyIds.some(halted)) {
      subscription.unsubscribe();
      return;
    }
    const ref = openRefOf(event);
    if (ref === undefined || swept.has(ref)) return;
    const owner = kernel.state.ownerOf(ref);
    if (owner === undefined || !owners.has(owner) || !halted(owner)) return;
    const more = cancelStrategyOrders(kernel, [owner], `${refTag}-l${++later}`, 'unprotective', swept);
    if (!keptMore() && more === 0) return;
    cancelled += more;
    counted(cancelled, [...kept]);
  });
  return () => subscription.unsubscribe();
}

/** @returns the reference of the order or algo order an update names, when it is still open; else undefined */
function openRefOf(event: OrderUpdateEvent | AlgoOrderUpdateEvent): string | undefined {
  if (event.kind === 'algoOrder')
    return isFinalAlgoState(event.algoOrder.state) ? undefined : event.algoOrder.clientAlgoOrderId;
  return isFinalOrderState(event.order.orderState) ? undefined : orderKey(event.order);
}
