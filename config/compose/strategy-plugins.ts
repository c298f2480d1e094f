import { existsSync } from 'node:fs';
import { dirname, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { userFrameOf } from '../../backtest/report/index.ts';
import type { StrategyDefinition, StrategySlot } from '../../core/kernel/index.ts';
import { builtInStrategyRegistry } from '../cli/strategy-registry.ts';
import { type ConfigProblem, type LoadedConfig, validateStrategyParams } from '../loader/index.ts';
import { strategySource } from '../schema/index.ts';
import { resolvePluginImportsFromKeel } from './plugin-imports.ts';

// biome-ignore lint/suspicious/noExplicitAny: plugins of any parameter and state types
type AnyStrategy = StrategyDefinition<any, any>;

/**
 * The strategies of a config, ready for a kernel, or the located problems that stop the run
 * (`constraintsOnly` as in `StrategyParamsResult`: only a strategy's check across its params
 * failed; absent for problems before params, such as a plugin module that does not load).
 */
export type StrategySlotsResult =
  | { readonly ok: true; readonly slots: readonly StrategySlot[] }
  | { readonly ok: false; readonly problems: readonly ConfigProblem[]; readonly constraintsOnly?: boolean };

function isStrategyDefinition(value: unknown): value is AnyStrategy {
  const candidate = value as Partial<AnyStrategy> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    candidate.kind === 'strategy' &&
    typeof candidate.name === 'string' &&
    typeof candidate.params?.safeParse === 'function'
  );
}

/** Packages Keel resolves to its own copies for plugins (see plugin-imports.ts). */
const KEEL_PROVIDED =
  /Cannot find module '(?:keel|keel\/model|zod|trading-signals|rxjs|decimal\.js)'\s*\nRequire stack/;

/**
 * What to do about a plugin that failed to load, when the message says it: Node's words for an
 * ES module read as CommonJS, a CommonJS `require` of what Keel provides (only ES `import`s are
 * resolved to Keel's copies), and a relative import of Keel's source copied from an example.
 * @param message - the loader's error message
 * @returns the advice, or undefined when the message says nothing known
 */
function loadAdvice(message: string): string | undefined {
  // Node reads a .js file outside a "type": "module" package as CommonJS, and says so obscurely
  // (a .ts plugin is read as ESM wherever it is: see plugin-imports.ts).
  if (/require\(\) ES Module|ERR_REQUIRE_ESM|Cannot use import statement outside a module/.test(message))
    return 'it is an ES module that Node read as CommonJS: name it .mjs or .ts, or put "type": "module" in the package.json next to it';
  if (KEEL_PROVIDED.test(message))
    return "plugins are ES modules: write import { z } from 'zod' and import { defineStrategy } from 'keel' instead of require(); name the file .mjs or .ts";
  if (/Cannot find module '[^']*\/core\/(?:kernel|model)\/index\.ts'/.test(message))
    return "outside Keel's repository import the strategy API as 'keel' and the model as 'keel/model': import { defineStrategy } from 'keel'";
  return undefined;
}

/**
 * What a plugin's module threw while it loaded, with where in the plugin's folder it threw
 * (`Error: no API key (at my-strategy.ts:4:7)`), as a hook's throw is reported; a syntax error's
 * message already names its place.
 */
function thrownAtLoad(error: unknown, path: string): string {
  if (!(error instanceof Error)) return `threw ${String(error)}`;
  const folder = `${dirname(path)}${sep}`;
  const at = userFrameOf(error.stack, process.cwd(), (file) => file.startsWith(folder));
  return at === undefined ? error.message : `${error.name}: ${error.message} (at ${at})`;
}

/**
 * Imports a strategy plugin module (`.ts` or `.js`) and finds its strategy: the default export,
 * or else the only named export that is a strategy definition (made with `defineStrategy`).
 * @param path - absolute path of the module
 * @returns the strategy definition
 * @throws Error naming the file when it is missing, fails to load, or exports no single strategy
 */
export async function importStrategyModule(path: string): Promise<AnyStrategy> {
  if (!existsSync(path)) throw new Error(`strategy module ${path} does not exist`);
  let module: Record<string, unknown>;
  resolvePluginImportsFromKeel();
  try {
    module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    const message = (error as Error).message;
    const advice = loadAdvice(message);
    // The advice leads: Node's own words for these cases say little to a plugin's author.
    throw new Error(
      `strategy module ${path} failed to load: ${advice === undefined ? thrownAtLoad(error, path) : `${advice} (Node: ${message})`}`,
    );
  }
  if (isStrategyDefinition(module.default)) return module.default;
  const named = Object.entries(module).filter(([, value]) => isStrategyDefinition(value));
  if (named.length === 1) return named[0]?.[1] as AnyStrategy;
  throw new Error(
    named.length === 0
      ? `strategy module ${path} exports no strategy: export default defineStrategy({...})`
      : `strategy module ${path} exports ${named.length} strategies (${named.map(([n]) => n).join(', ')}); export the one to run as default`,
  );
}

/**
 * The registry a config needs: the built-ins plus every plugin module its strategies name,
 * imported and keyed by their `use` text.
 * @param loaded - the validated config
 * @returns the registry, or a located problem per module that could not be loaded
 */
export async function registryFor(
  loaded: LoadedConfig,
): Promise<
  | { readonly ok: true; readonly registry: ReadonlyMap<string, AnyStrategy> }
  | { readonly ok: false; readonly problems: readonly ConfigProblem[] }
> {
  const registry = builtInStrategyRegistry();
  const problems: ConfigProblem[] = [];
  for (const [index, strategy] of loaded.config.strategies.entries()) {
    const source = strategySource(strategy.use, loaded.dir);
    if (source.kind !== 'module' || registry.has(strategy.use)) continue;
    try {
      registry.set(strategy.use, await importStrategyModule(source.path));
    } catch (error) {
      problems.push(loaded.source.problem(['strategies', index, 'use'], (error as Error).message));
    }
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, registry };
}

/**
 * Resolves every strategy entry of a config to a kernel slot: its definition (built-in or
 * plugin module), its params parsed by the strategy's own schema, and for a plugin its module's
 * file (`source`), which faults name when no stack frame places them.
 * @param loaded - the validated config
 * @returns the slots, or located problems (unknown strategy, bad params, unloadable module)
 */
export async function strategySlots(loaded: LoadedConfig): Promise<StrategySlotsResult> {
  const resolved = await registryFor(loaded);
  if (!resolved.ok) return resolved;
  const params = validateStrategyParams(loaded, resolved.registry);
  if (!params.ok) return params;
  return {
    ok: true,
    slots: loaded.config.strategies.map((entry) => {
      const source = strategySource(entry.use, loaded.dir);
      return {
        id: entry.id,
        strategy: resolved.registry.get(entry.use) as AnyStrategy,
        params: params.params.get(entry.id),
        ...(source.kind === 'module' ? { source: source.path } : {}),
      };
    }),
  };
}
