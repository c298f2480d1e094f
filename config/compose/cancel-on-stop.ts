import type { Kernel } from '../../core/kernel/index.ts';
import type { Intent } from '../../core/model/index.ts';
import type { RunMetrics } from './run-metrics.ts';

/**
 * Cancels every open order of a stopping session (`shutdown.cancelAllOrders`): one cancelOrders
 * intent per sym with open orders, through the risk gate, then waits until the session's record
 * shows none open or the timeout passes.
 * @param kernel - the stopped kernel (its state lists the open orders)
 * @param gate - the session's risk gate
 * @param execution - where approved commands go
 * @param openCount - orders the venue still holds open, by the session's own record
 * @param timeoutMs - how long to wait for the cancels
 * @returns when no order is open or the timeout passed
 */
export async function cancelOpenOrdersOnStop(
  kernel: Kernel,
  gate: ReturnType<RunMetrics['countingGate']>,
  execution: { submit(command: never): void },
  openCount: () => number,
  timeoutMs: number,
): Promise<void> {
  const syms = new Set(kernel.state.openOrders().map((o) => o.sym));
  const intents: Intent[] = [...syms].map((sym) => ({ kind: 'cancelOrders', ref: `keel-stop-${sym}`, sym }));
  for (const intent of intents) {
    const decision = gate.evaluate({ strategyId: 'keel', intent }, kernel.state);
    if (decision.kind === 'approved') execution.submit(decision.command as never);
  }
  const deadline = Date.now() + timeoutMs;
  while (openCount() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}
