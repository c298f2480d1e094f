import type { StrategyDefinition } from '../../core/kernel/index.ts';
import { BUILT_IN_STRATEGIES } from '../../strategies/index.ts';

/** Strategy definitions by the `use` text of config entries. */
// biome-ignore lint/suspicious/noExplicitAny: the registry holds plugins of every parameter and state type
export type StrategyRegistry = ReadonlyMap<string, StrategyDefinition<any, any>>;

/**
 * The built-in strategies (`strategies/`) by name: what `use: sma-cross` means in a config.
 * @returns a fresh map, so a caller may add plugin modules to it
 */
// biome-ignore lint/suspicious/noExplicitAny: the registry holds plugins of every parameter and state type
export function builtInStrategyRegistry(): Map<string, StrategyDefinition<any, any>> {
  return new Map(BUILT_IN_STRATEGIES);
}
