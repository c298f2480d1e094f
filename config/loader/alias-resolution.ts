import { type Alias, visit } from 'yaml';
import type { ConfigProblem } from './config-problem.ts';
import type { ConfigSource } from './config-source.ts';

/** How many alias expansions a config may make; more is a typo or a YAML bomb, never a config. */
export const MAX_ALIAS_COUNT = 100;

/** A config document as plain data, or the located problem that stopped resolving its aliases. */
export type ResolvedDocument =
  | { readonly ok: true; readonly data: unknown }
  | { readonly ok: false; readonly problem: ConfigProblem };

/**
 * Converts a parsed config to plain data, resolving its `*alias` references. An alias to an
 * anchor not defined above it, or more than {@link MAX_ALIAS_COUNT} expansions, is a problem at
 * the alias's line instead of the YAML library's ReferenceError.
 * @param source - the parsed config
 * @returns the data, or the problem
 */
export function resolveAliases(source: ConfigSource): ResolvedDocument {
  try {
    return { ok: true, data: source.doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) };
  } catch (error) {
    if (!(error instanceof ReferenceError)) throw error;
    const aliases = aliasesOf(source);
    const unresolved = aliases.find((alias) => alias.resolve(source.doc) === undefined);
    if (unresolved !== undefined)
      return {
        ok: false,
        problem: aliasProblem(
          source,
          unresolved,
          `alias *${unresolved.source} names no anchor defined above it: write &${unresolved.source} on the value before any alias to it`,
        ),
      };
    return {
      ok: false,
      problem: aliasProblem(
        source,
        aliases[0],
        `has aliases that expand to more than ${MAX_ALIAS_COUNT} values: write the repeated values out`,
      ),
    };
  }
}

function aliasesOf(source: ConfigSource): Alias[] {
  const found: Alias[] = [];
  visit(source.doc, {
    Alias: (_key, node) => {
      found.push(node);
    },
  });
  return found;
}

/** The problem at an alias's line, or unplaced when there is no alias or it has no position. */
function aliasProblem(source: ConfigSource, alias: Alias | undefined, message: string): ConfigProblem {
  const offset = alias?.range?.[0];
  return offset === undefined
    ? { path: [], subject: 'YAML', message, where: '' }
    : source.problemAtOffset(offset, message);
}
