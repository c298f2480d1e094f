import type { z } from 'zod';
import { declaredSymsOf, type SymsDeclaration, strictParams } from '../../core/kernel/index.ts';
import type { ConfigProblem } from './config-problem.ts';
import { issueSentences } from './issue-sentence.ts';
import { knownKeysOf } from './known-keys.ts';
import type { LoadedConfig } from './load-config.ts';

/**
 * What {@link validateStrategyParams} needs of a strategy definition: its params schema, and the
 * syms it narrows its market data to, if it does.
 */
export interface StrategyParamsDefinition extends SymsDeclaration {
  readonly params: z.ZodType;
}

/**
 * Strategy definitions by the `use` text of config entries: built-in names, and module paths
 * once the composition root has imported those modules. A `Map` fits.
 */
export interface StrategyParamsRegistry {
  get(use: string): StrategyParamsDefinition | undefined;
  keys(): Iterable<string>;
}

/**
 * Params of every strategy entry, parsed by its own schema (defaults applied), by strategy id; or
 * the problems, with `constraintsOnly` true when each of them comes from a strategy's own check
 * across its params (a zod `refine`, e.g. `fast must be shorter than slow`) rather than from a
 * value's type or range, a missing or unknown key, or an unknown strategy: every value is fine
 * alone and only their combination is refused, which a parameter sweep skips.
 */
export type StrategyParamsResult =
  | { readonly ok: true; readonly params: ReadonlyMap<string, unknown> }
  | { readonly ok: false; readonly problems: readonly ConfigProblem[]; readonly constraintsOnly: boolean };

/**
 * Checks each strategy entry's `params` against the zod schema of the strategy it uses (a plain
 * `z.object` strictly: unknown keys are errors with a did-you-mean, see `strictParams`), then the
 * syms its definition narrows its market data to (`syms`), which must be among the config's
 * instruments. This is the second validation step: the config schema cannot know strategy
 * params, the registry does. Problems carry the same `file:line:col` as the first step's.
 * @param loaded - a config that passed the first step
 * @param registry - strategy definitions by `use` text
 * @returns the parsed params by strategy id, or located problems
 */
export function validateStrategyParams(
  loaded: LoadedConfig,
  registry: StrategyParamsRegistry,
): StrategyParamsResult {
  const problems: ConfigProblem[] = [];
  const params = new Map<string, unknown>();
  let constraintsOnly = true;
  loaded.config.strategies.forEach((strategy, index) => {
    const definition = registry.get(strategy.use);
    if (definition === undefined) {
      const known = [...registry.keys()].filter((key) => !key.includes('/') && !key.includes('.'));
      problems.push(
        loaded.source.problem(
          ['strategies', index, 'use'],
          `names "${strategy.use}", which is not a known strategy (built-in: ${known.join(', ') || 'none'})`,
        ),
      );
      constraintsOnly = false;
      return;
    }
    const parsed = strictParams(definition.params).safeParse(strategy.params, { reportInput: true });
    if (!parsed.success) {
      if (parsed.error.issues.some((issue) => issue.code !== 'custom')) constraintsOnly = false;
      const keys = knownKeysOf(definition.params);
      for (const issue of issueSentences(parsed.error.issues, ['strategies', index, 'params'], keys)) {
        problems.push(loaded.source.problem(issue.path, issue.message, issue.at, issue.standalone));
      }
      return;
    }
    const instruments = loaded.config.instruments.map((instrument) => instrument.sym);
    const declared = declaredSymsOf(definition, parsed.data, instruments);
    if (!declared.ok) {
      problems.push(loaded.source.problem(['strategies', index], declared.problem));
      constraintsOnly = false;
      return;
    }
    params.set(strategy.id, parsed.data);
  });
  return problems.length > 0 ? { ok: false, problems, constraintsOnly } : { ok: true, params };
}
