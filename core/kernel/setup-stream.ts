import type { Observable, Subscription } from 'rxjs';
import type { Intent } from '../model/index.ts';
import type { OutputSink } from './hook-output.ts';
import { acceptOutput, refuseOutput } from './hook-output.ts';
import type { StrategyContext } from './strategy-context.ts';

/**
 * Runs a strategy's `setup` (the reactive style) and subscribes to the intents it returns: each
 * one emitted while the strategy is live is checked and sent, and an error of the stream is a
 * fault of the strategy.
 * @param setup - the strategy's `setup`
 * @param ctx - the strategy's context
 * @param sink - the strategy's way to the kernel
 * @param isLive - whether the strategy still runs (a fault halts it, even while subscribing)
 * @returns the subscription (undefined when `setup` returned nothing), or `false` when `setup`
 *   threw or returned something that is not an Observable: the strategy is then halted and reported
 */
export function subscribeSetup(
  setup: (ctx: StrategyContext<unknown, unknown>) => Observable<Intent> | undefined,
  ctx: StrategyContext<unknown, unknown>,
  sink: OutputSink,
  isLive: () => boolean,
): Subscription | undefined | false {
  let intents: Observable<Intent> | undefined;
  try {
    intents = setup(ctx);
  } catch (error) {
    sink.fault('setup', error);
    return false;
  }
  if (intents !== undefined && typeof (intents as { subscribe?: unknown }).subscribe !== 'function') {
    refuseOutput(sink, 'setup', intents, 'an Observable of intents or nothing');
    return false;
  }
  const subscription = intents?.subscribe({
    next: (intent) => {
      if (isLive()) acceptOutput(sink, intent, 'setup stream', 'emitted');
    },
    error: (error: unknown) => sink.fault('setup stream', error),
  });
  // A stream that emits while it is subscribed can halt the strategy before it is assigned.
  if (!isLive()) subscription?.unsubscribe();
  return subscription;
}
