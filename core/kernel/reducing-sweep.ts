import type { Kernel } from './kernel.ts';
import type { IntentGate } from './kernel-options.ts';
import { cancelStrategyOrders } from './strategy-order-sweep.ts';

/**
 * A kill switch's sweep on a trip to REDUCING ({@link cancelStrategyOrders} of the orders that
 * would add risk, the `riskAdding` scope), kept up while the strategies' trading stays REDUCING:
 * each time a position changes (it shrinks, goes flat or flips: a close, a reducing fill), the
 * orders that no longer reduce it are cancelled by the same rule, at once, before any strategy
 * hears of the position. A plain SELL kept or passed as reducing against a long would otherwise
 * rest on once the long is closed, and open a short while only risk-reducing intents pass. Each
 * later sweep's references are `<refTag>-p<n>-...`; an order a sweep of the trip already asked to
 * cancel is not asked again. The sweep stops at the first position news once no strategy is
 * REDUCING any more (the gate's `status`; a gate without one is taken to stay REDUCING).
 * @param kernel - the run's kernel
 * @param gate - the run's risk gate
 * @param strategyIds - whose orders to cancel
 * @param refTag - the start of the commands' references, e.g. `keel-reduce-3` (unique per trip)
 * @param counted - told how many orders and algo orders the trip's sweeps asked to cancel so far:
 *   after the trip's sweep, then after each later one that asked to cancel any
 * @returns stops the sweep (the run ended)
 */
export function sweepWhileReducing(
  kernel: Kernel,
  gate: IntentGate,
  strategyIds: readonly string[],
  refTag: string,
  counted: (cancelled: number) => void,
): () => void {
  const swept = new Set<string>();
  let cancelled = cancelStrategyOrders(kernel, strategyIds, refTag, 'riskAdding', swept);
  counted(cancelled);
  const reducing = (id: string): boolean => (gate.status?.(id).state ?? 'REDUCING') === 'REDUCING';
  let later = 0;
  const subscription = kernel.positionsFolded.subscribe(() => {
    const ids = strategyIds.filter(reducing);
    if (ids.length === 0) {
      subscription.unsubscribe();
      return;
    }
    const more = cancelStrategyOrders(kernel, ids, `${refTag}-p${++later}`, 'riskAdding', swept);
    if (more === 0) return;
    cancelled += more;
    counted(cancelled);
  });
  return () => subscription.unsubscribe();
}
