import { basename, resolve } from 'node:path';
import { z } from 'zod';
import { expandHome } from './file-path.ts';
import { portfolioId } from './portfolio-config.ts';
import { strategyRiskSchema } from './risk-config.ts';

const BUILT_IN_NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
const MODULE_PATH = /^(?:\.{1,2}\/|\/)?[^\0]+\.(?:ts|mts|js|mjs)$/;

/**
 * Where a strategy comes from: the name of a built-in (`market-maker`) or a path to a
 * `.ts`/`.mts`/`.js`/`.mjs` plugin module (an ES module), relative to the config file.
 */
export const strategyUseSchema = z
  .string()
  .overwrite(expandHome)
  .refine((use) => BUILT_IN_NAME.test(use) || MODULE_PATH.test(use), {
    message:
      'must be a built-in strategy name like "sma-cross" or a path to an ES module ending .ts, .mts, .js or .mjs (CommonJS .cjs plugins are not supported)',
  });

/**
 * A strategy instance of a run. `params` are checked later by the strategy's own zod schema
 * (see `validateStrategyParams`), because only the strategy knows them.
 */
export const strategyConfigSchema = z.strictObject({
  id: z
    .string()
    .regex(/^[A-Za-z0-9_]{1,24}$/, {
      error: 'must be 1 to 24 letters, digits or "_" (it tags the client order ids of its orders)',
    })
    .describe(
      'Unique id of this strategy instance, 1 to 24 letters, digits or "_" (no "-"); it tags its orders and logs.',
    ),
  use: strategyUseSchema.describe(
    'A built-in strategy name, or a path to a plugin (an ES module: .ts, .mts, .js or .mjs) relative to this file (`~/` is the home folder).',
  ),
  params: z
    .record(z.string(), z.unknown())
    .default({})
    .describe("The strategy's parameters, checked by the strategy's own schema."),
  risk: strategyRiskSchema
    .optional()
    .describe('Limits for this strategy alone, checked on top of the global ones.'),
  portfolio: portfolioId
    .optional()
    .describe(
      "The portfolio it trades in (the main one when absent), whose sub-portfolio fee markup its fills pay: one run trades one portfolio, so every strategy of a run names the same one. Backtests and paper runs only: a live run trades its API key's portfolio.",
    ),
});

/** A strategy entry of a run, validated (params not yet checked). */
export type StrategyConfig = z.output<typeof strategyConfigSchema>;

/** A strategy source: a built-in name, or a module file to import. */
export type StrategySource =
  | { readonly kind: 'built-in'; readonly name: string }
  | { readonly kind: 'module' /** Absolute path. */; readonly path: string };

/**
 * Tells a built-in name from a module path, resolving the path against the config's directory.
 * @param use - the `use` field of a validated strategy entry
 * @param configDir - the directory of the config file (module paths are relative to it)
 * @returns the built-in name, or the module's absolute path
 */
export function strategySource(use: string, configDir: string): StrategySource {
  return BUILT_IN_NAME.test(use)
    ? { kind: 'built-in', name: use }
    : { kind: 'module', path: resolve(configDir, use) };
}

/**
 * A strategy's name for titles and default file names: a built-in's name, or a plugin module's
 * file name without its extension (`./breakout.ts` and `~/strategies/breakout.ts` are `breakout`).
 * @param use - the `use` field of a validated strategy entry
 * @returns the name
 */
export function strategyName(use: string): string {
  return BUILT_IN_NAME.test(use) ? use : basename(use).replace(/\.(?:ts|mts|js|mjs)$/, '');
}
