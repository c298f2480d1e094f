import type { KeelEvent } from '../model/index.ts';
import { InFlightRequests } from './in-flight-requests.ts';
import { IntentPipeline } from './intent-pipeline.ts';
import type { KernelOptions } from './kernel-options.ts';
import type { KernelState } from './kernel-state.ts';
import { lookUpOrders } from './order-lookups.ts';
import type { IntentDenied } from './strategy-events.ts';
import type { StrategyRunner } from './strategy-runner.ts';
import { UserDataRouting } from './user-data-routing.ts';

/** What the kernel's intent and User Data paths report back to it. */
export interface KernelPathHost {
  readonly state: KernelState;
  readonly runners: readonly StrategyRunner[];
  /** Delivers a denial to its strategy. */
  readonly deny: (runner: StrategyRunner, denial: IntentDenied) => void;
  /** Hands an event (a look-up's answer) to the kernel. */
  readonly push: (event: KeelEvent) => void;
  /** While warming up, the reason every intent is denied; undefined when trading. */
  readonly warmingUp: () => string | undefined;
}

/** The kernel's two ways to the venue and back: intents out, User Data in, and look-ups. */
export interface KernelPaths {
  readonly pipeline: IntentPipeline;
  readonly userRouting: UserDataRouting;
}

/**
 * Builds the intent pipeline and the User Data routing around one book of modify and cancel
 * requests in flight (so a refusal finds its sender and undoes PENDING_*), and the look-ups of
 * orders whose request got no answer.
 * @param options - the kernel's options (gate, execution port)
 * @param host - the kernel's state, strategies and callbacks
 * @returns the paths
 */
export function kernelPaths(options: KernelOptions, host: KernelPathHost): KernelPaths {
  const { state, runners, deny, push, warmingUp } = host;
  const requests = new InFlightRequests(state.orders);
  const lookUp = (orders: Parameters<typeof lookUpOrders>[1]) =>
    lookUpOrders(options.execution, orders, { now: () => state.now(), push });
  return {
    pipeline: new IntentPipeline(state, options.gate, options.execution, runners, deny, requests, warmingUp),
    userRouting: new UserDataRouting(state, runners, options.gate, deny, requests, lookUp),
  };
}
