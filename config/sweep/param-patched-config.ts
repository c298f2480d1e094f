import type { LoadedConfig } from '../loader/index.ts';
import { strictYamlValue } from '../loader/index.ts';

/** `strategies.<n>.params.<key>`: a strategy's own param, which only the strategy's schema checks. */
const STRATEGY_PARAM = /^strategies\.(\d+)\.params\.([A-Za-z_$][\w$]*)$/;

/**
 * A loaded config with a combination's values put straight into its strategies' params, for a
 * combination that sets only numbers and booleans of strategy params: the config's own schema
 * does not look inside params (each value was loaded once on its own before), so checking the
 * strategy's params against this gives what loading the combination would, without parsing the
 * file again for each of a grid's many combinations.
 * @param template - the config loaded with the sweep's own overrides
 * @param combination - the combination's `path=value` arguments
 * @returns the patched config; undefined when the combination sets anything else (a config
 *   field, a nested param, a string a `${VAR}` could be in), which must be loaded in full
 */
export function paramPatchedConfig(
  template: LoadedConfig,
  combination: readonly string[],
): LoadedConfig | undefined {
  const patches = new Map<number, Record<string, unknown>>();
  for (const set of combination) {
    const eq = set.indexOf('=');
    const param = STRATEGY_PARAM.exec(set.slice(0, eq));
    if (param === null) return undefined;
    const index = Number(param[1]);
    if (template.config.strategies[index] === undefined) return undefined;
    let value: unknown;
    try {
      value = strictYamlValue(set.slice(eq + 1));
    } catch {
      return undefined;
    }
    if (typeof value !== 'number' && typeof value !== 'boolean') return undefined;
    patches.set(index, { ...patches.get(index), [param[2] as string]: value });
  }
  const strategies = template.config.strategies.map((strategy, index) => {
    const patch = patches.get(index);
    return patch === undefined ? strategy : { ...strategy, params: { ...strategy.params, ...patch } };
  });
  return { ...template, config: { ...template.config, strategies } };
}
