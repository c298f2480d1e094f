import type { OutputSink } from './hook-output.ts';
import { acceptOutput } from './hook-output.ts';
import type { StrategyContext } from './strategy-context.ts';
import type { IntentOutput } from './strategy-events.ts';

/**
 * One event hook of a strategy as its runner holds it (undefined when the strategy has none).
 * @typeParam E - the event the hook is called with
 */
export type Hook<E> = ((ctx: StrategyContext<unknown, unknown>, event: E) => IntentOutput) | undefined;

/**
 * Calls one hook of a strategy and sends what it returned: a throw is a fault of the strategy
 * (the sink halts it), and a return that is not intents is refused like one. Intents the hook
 * built with `ctx.order` and neither returned nor gave to `ctx.submit` are noted on the factory's
 * tally, for the run's warnings.
 * @param hook - the hook
 * @param ctx - the strategy's context
 * @param event - the event
 * @param sink - the strategy's way to the kernel
 * @param where - the hook's name, for the fault
 * @returns false when the hook threw (nothing more of this event reaches the strategy)
 */
export function callHook<E>(
  hook: NonNullable<Hook<E>>,
  ctx: StrategyContext<unknown, unknown>,
  event: E,
  sink: OutputSink,
  where: string,
): boolean {
  const tally = ctx.order.tally;
  const outstanding = tally.outstanding;
  let out: IntentOutput;
  try {
    out = hook(ctx, event);
  } catch (error) {
    sink.fault(where, error);
    return false;
  }
  if (out !== undefined && !acceptOutput(sink, out, where, 'returned')) return true;
  // Built in this call and neither returned nor submitted: two counters read, nothing allocated.
  const unsent = tally.outstanding - outstanding;
  if (unsent > 0) tally.noteUnsent(where, unsent);
  return true;
}
