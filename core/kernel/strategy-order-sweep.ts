import type { Intent } from '../model/index.ts';
import type { Kernel } from './kernel.ts';
import type { IntentGate } from './kernel-options.ts';
import { RiskAddingOrders } from './risk-adding-orders.ts';

/** Where the cancels go: the run's execution port (the venue's client, or the simulated venue). */
export interface CancelSink {
  submit(command: never): void;
}

/**
 * Which of the strategies' orders a sweep cancels: all of them, or only those that would add risk
 * if they filled or fired (see {@link RiskAddingOrders}: reduce-only and protective ones stay).
 */
export type SweepScope = 'all' | 'riskAdding';

/**
 * Cancels the resting orders and algo orders some strategies own, those still on their way to the
 * venue included (a strategy halted by a fault, or every strategy when the kill switch halts
 * trading), so nothing keeps working on the venue that no strategy manages any more; with the
 * scope `riskAdding` (a trip to REDUCING) only those that would add risk. One cancelOrders per sym
 * listing the orders, one cancelAlgoOrder per algo order, decided by the risk gate like every
 * command (cancels pass) under the strategy id `keel`; the venue's answers come back to the
 * kernel as usual. Orders no strategy owns are left alone.
 * @param kernel - the run's kernel (its state lists the owners' open orders)
 * @param gate - the run's risk gate
 * @param execution - the run's execution port
 * @param strategyIds - whose orders to cancel
 * @param refTag - the start of the commands' references, e.g. `keel-halt-3` (unique per sweep)
 * @param scope - every order (default), or only those that would add risk
 * @returns how many orders and algo orders were asked to be cancelled
 */
export function cancelStrategyOrders(
  kernel: Kernel,
  gate: IntentGate,
  execution: CancelSink,
  strategyIds: readonly string[],
  refTag: string,
  scope: SweepScope = 'all',
): number {
  const bySym = new Map<string, string[]>();
  const intents: Intent[] = [];
  let cancelled = 0;
  const judge =
    scope === 'all' ? undefined : new RiskAddingOrders((sym, leg) => kernel.state.positionQty(sym, leg));
  for (const id of strategyIds) {
    for (const order of kernel.state.openOrders(id)) {
      if (judge !== undefined && !judge.order(order)) continue;
      const targets = bySym.get(order.sym) ?? [];
      targets.push(order.clientOrderId);
      bySym.set(order.sym, targets);
      cancelled++;
    }
    // The ones the venue has not answered yet too: a stop sent just before would otherwise fire
    // later into a halted portfolio, its order never passing the gate.
    const algos = [
      ...kernel.state
        .openAlgoOrders(id)
        .filter((a) => judge === undefined || judge.algoOrder(a))
        .map((a) => ({ ref: a.clientAlgoOrderId, sym: a.sym })),
      ...kernel.algoOrdersInFlight(id).filter((a) => judge === undefined || judge.algoOrder(a.intent)),
    ];
    for (const algo of algos) {
      cancelled++;
      intents.push({
        kind: 'cancelAlgoOrder',
        ref: `${refTag}-a${intents.length + 1}`,
        target: algo.ref,
        sym: algo.sym,
      });
    }
  }
  let n = 0;
  for (const [sym, targets] of bySym)
    intents.push({ kind: 'cancelOrders', ref: `${refTag}-${++n}`, sym, targets });
  for (const intent of intents) {
    const decision = gate.evaluate({ strategyId: 'keel', intent }, kernel.state);
    if (decision.kind === 'approved') execution.submit(decision.command as never);
  }
  return cancelled;
}
