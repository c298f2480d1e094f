import type { StrategyParamsRegistry } from '../loader/index.ts';

/**
 * The strategies `keel validate` checks params against. Undefined while this build has no
 * strategies/ registry; `keel validate` then says that params were not checked.
 * @returns the registry of built-in strategies, or undefined when there is none yet
 */
export function builtInStrategyRegistry(): StrategyParamsRegistry | undefined {
  return undefined;
}
