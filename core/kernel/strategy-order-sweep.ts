import type { CancelAlgoOrderIntent, CancelOrdersIntent, Dec, PositionSide } from '../model/index.ts';
import type { Kernel } from './kernel.ts';
import { RiskAddingOrders } from './risk-adding-orders.ts';
import { UnprotectiveOrders } from './unprotective-orders.ts';

/**
 * Which of the strategies' orders a sweep cancels: all of them, only those that would add risk if
 * they filled or fired (`riskAdding`, a kill switch's trip to REDUCING: see
 * {@link RiskAddingOrders}, reduce-only and protective ones stay, and plain ones that fit against
 * the position), or all but the protective ones of open positions (`unprotective`, a strategy
 * halted by a fault or a trip to HALTED: see {@link UnprotectiveOrders}, so a position keeps its
 * stop-loss).
 */
export type SweepScope = 'all' | 'riskAdding' | 'unprotective';

/**
 * Cancels the resting orders and algo orders some strategies own, those still on their way to the
 * venue included (every strategy's when the kill switch halts trading), so nothing keeps working on
 * the venue that no strategy manages any more; with the scope `riskAdding` (a trip to REDUCING)
 * only those that would add risk, with `unprotective` (a strategy halted by a fault) all but the
 * protective ones of its open positions. One cancelOrders per strategy and sym listing its orders,
 * one cancelAlgoOrder per algo order, each sent through the kernel as its owner's cancel
 * ({@link Kernel.sendKeelCancel}: the risk gate under the strategy id `keel`, cancels pass, then
 * the in-flight bookkeeping, so its orders show PENDING_CANCEL and a refusal reaches the owner and
 * is looked up like one of its own cancels). An order with a sweep's cancel already on its way is
 * not cancelled again; one whose owner's own cancel is on its way is (a second cancel is harmless,
 * the venue refusing the later one as unknown): were the owner's refused (rate limit, or no answer
 * and the order read back open), the order would go back to OPEN with no strategy managing it and
 * no sweep to come. Orders no strategy owns are left alone.
 * @param kernel - the run's kernel (its state lists the owners' open orders)
 * @param strategyIds - whose orders to cancel
 * @param refTag - the start of the commands' references, e.g. `keel-halt-3` (unique per sweep)
 * @param scope - every order (default), or only those of a {@link SweepScope}
 * @param swept - the references of the orders and algo orders earlier sweeps of the same trip
 *   asked to cancel, which this one skips; those it asks to cancel are added (omitted: none)
 * @returns how many orders and algo orders were asked to be cancelled
 */
export function cancelStrategyOrders(
  kernel: Kernel,
  strategyIds: readonly string[],
  refTag: string,
  scope: SweepScope = 'all',
  swept?: Set<string>,
): number {
  const sends: {
    readonly owner: string;
    readonly intent: CancelOrdersIntent | CancelAlgoOrderIntent;
    /** The orders or algo order it cancels. */
    readonly refs: readonly string[];
  }[] = [];
  const cancelOrders: { readonly owner: string; readonly sym: string; readonly targets: string[] }[] = [];
  let algoCancels = 0;
  const judge = judgeOf(scope, (sym, leg) => kernel.state.positionQty(sym, leg));
  for (const id of strategyIds) {
    const bySym = new Map<string, string[]>();
    for (const order of kernel.state.openOrders(id)) {
      if (order.orderState === 'PENDING_CANCEL' && kernel.keelCancelInFlight(order.clientOrderId)) continue;
      if (swept?.has(order.clientOrderId)) continue;
      if (judge !== undefined && !judge.order(order)) continue;
      let targets = bySym.get(order.sym);
      if (targets === undefined) {
        targets = [];
        bySym.set(order.sym, targets);
        cancelOrders.push({ owner: id, sym: order.sym, targets });
      }
      targets.push(order.clientOrderId);
    }
    // The ones the venue has not answered yet too: a stop sent just before would otherwise fire
    // later into a halted portfolio, its order never passing the gate.
    const algos = [
      ...kernel.state
        .openAlgoOrders(id)
        .filter((a) => judge === undefined || judge.algoOrder(a))
        .map((a) => ({ ref: a.clientAlgoOrderId, sym: a.sym })),
      ...kernel.algoOrdersInFlight(id).filter((a) => judge === undefined || judge.algoOrder(a.intent)),
    ].filter((a) => !swept?.has(a.ref));
    for (const algo of algos) {
      const ref = `${refTag}-a${++algoCancels}`;
      sends.push({
        owner: id,
        intent: { kind: 'cancelAlgoOrder', ref, target: algo.ref, sym: algo.sym },
        refs: [algo.ref],
      });
    }
  }
  let n = 0;
  for (const { owner, sym, targets } of cancelOrders)
    sends.push({
      owner,
      intent: { kind: 'cancelOrders', ref: `${refTag}-${++n}`, sym, targets },
      refs: targets,
    });
  let cancelled = 0;
  for (const { owner, intent, refs } of sends) {
    if (!kernel.sendKeelCancel(owner, intent)) continue;
    cancelled += refs.length;
    for (const ref of refs) swept?.add(ref);
  }
  return cancelled;
}

/**
 * @param scope - the sweep's scope
 * @param positionQty - the signed quantity of a position leg now
 * @returns what tells which orders the scope cancels (true: cancel); undefined for every order
 */
function judgeOf(
  scope: SweepScope,
  positionQty: (sym: string, positionSide: PositionSide) => Dec,
): RiskAddingOrders | UnprotectiveOrders | undefined {
  if (scope === 'riskAdding') return new RiskAddingOrders(positionQty);
  if (scope === 'unprotective') return new UnprotectiveOrders(positionQty);
  return undefined;
}
