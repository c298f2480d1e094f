import type { Observable } from 'rxjs';
import type { Kernel } from '../../core/kernel/index.ts';
import type { Intent, UserEvent } from '../../core/model/index.ts';
import type { RunMetrics } from './run-metrics.ts';

/** Where a stopping session's cancels go, and where the venue's answers come back. */
export interface StopExecution {
  submit(command: never): void;
  /** The venue's User Data: answers to the algo cancels (the venue pushes no algo updates). */
  readonly events: Observable<UserEvent>;
}

/**
 * Cancels every open order and algo order of a stopping session (`shutdown.cancelAllOrders`),
 * the strategies' own and those the session found on the venue at startup: one cancelOrders
 * intent per sym with open orders and one cancelAlgoOrder per open algo order (whose answer
 * says it is gone), through the risk gate, then waits until the session's record shows no order
 * open and every algo cancel is answered, or the timeout passes.
 * @param kernel - the stopped kernel (its state lists the open orders and algo orders)
 * @param gate - the session's risk gate
 * @param execution - where approved commands go, and its User Data
 * @param openCount - orders the venue still holds open, by the session's own record
 * @param timeoutMs - how long to wait for the cancels
 * @returns when nothing is open or the timeout passed
 */
export async function cancelOpenOrdersOnStop(
  kernel: Kernel,
  gate: ReturnType<RunMetrics['countingGate']>,
  execution: StopExecution,
  openCount: () => number,
  timeoutMs: number,
): Promise<void> {
  const syms = new Set(kernel.state.openOrders().map((o) => o.sym));
  const algoCancels = kernel.state.openAlgoOrders().map(
    (algo, i): Intent => ({
      kind: 'cancelAlgoOrder',
      ref: `keel-stop-algo-${i + 1}`,
      target: algo.clientAlgoOrderId,
      sym: algo.sym,
    }),
  );
  const unanswered = new Map(algoCancels.map((intent) => [intent.ref, intent]));
  const answers = execution.events.subscribe((event) => {
    if (event.kind === 'commandRejected') unanswered.delete(event.ref);
    if (event.kind === 'algoOrder' && event.algoOrder.state !== 'NEW')
      for (const [ref, intent] of unanswered)
        if (intent.kind === 'cancelAlgoOrder' && intent.target === event.algoOrder.clientAlgoOrderId)
          unanswered.delete(ref);
  });
  const intents: Intent[] = [
    ...[...syms].map((sym): Intent => ({ kind: 'cancelOrders', ref: `keel-stop-${sym}`, sym })),
    ...algoCancels,
  ];
  for (const intent of intents) {
    const decision = gate.evaluate({ strategyId: 'keel', intent }, kernel.state);
    if (decision.kind === 'approved') execution.submit(decision.command as never);
    else unanswered.delete(intent.ref);
  }
  const deadline = Date.now() + timeoutMs;
  while ((openCount() > 0 || unanswered.size > 0) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  answers.unsubscribe();
}
