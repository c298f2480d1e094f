import type { StrategyDefinition } from './define-strategy.ts';
import { isThenable } from './hook-output.ts';

/** Why a strategy's state factory failed, reported at start like a throw in `onStart`. */
export interface StateFactoryFailure {
  readonly error: unknown;
  /** `returned` when it did not throw but returned a Promise. */
  readonly how?: 'returned';
}

/**
 * Makes a strategy's own mutable state with its `state(params)` factory. A factory that fails is
 * the strategy's fault, reported at start like a throw in onStart (strategy, `state`, the line of
 * the plugin), not a crash of the whole run.
 * @param definition - the plugin
 * @param params - its parsed parameters
 * @returns the state (undefined without a factory; the Promise an async factory returned), and
 *   the failure when the factory threw or returned a Promise
 */
export function createStrategyState(
  definition: StrategyDefinition<unknown, unknown>,
  params: unknown,
): { readonly state: unknown; readonly failure?: StateFactoryFailure } {
  let state: unknown;
  try {
    state = definition.state === undefined ? undefined : definition.state(params);
  } catch (error) {
    return { state, failure: { error } };
  }
  if (isThenable(state)) {
    return {
      state,
      failure: {
        error: new TypeError(
          'state returned a Promise (an async function?): the state factory must return the state itself, synchronously',
        ),
        how: 'returned',
      },
    };
  }
  return { state };
}
