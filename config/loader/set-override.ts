import { isMap, isSeq } from 'yaml';
import type { ConfigProblem } from './config-problem.ts';
import type { ConfigSource } from './config-source.ts';
import { strictYamlValue } from './strict-yaml-value.ts';
import { formatYamlPath, type YamlPath } from './yaml-path.ts';

/** A `--set path=value` argument, parsed. */
export interface SetOverride {
  readonly path: YamlPath;
  /** The value, parsed as YAML (`12` is a number, `true` a boolean, `abc` a string). */
  readonly value: unknown;
  /** The argument as typed, for error locations. */
  readonly arg: string;
}

const KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;
const INDEX = /^(?:0|[1-9][0-9]*)$/;

/**
 * Parses a `--set` path: dot-separated keys, numbers for list items (`strategies.0.params.fast`);
 * `strategies[0].params.fast` is accepted too.
 * @param text - the path text
 * @returns the path segments
 * @throws TypeError saying which segment is wrong
 */
export function parseSetPath(text: string): YamlPath {
  const segments = text.replace(/\[(\d+)\]/g, '.$1').split('.');
  if (text === '') throw new TypeError('the path is empty');
  return segments.map((segment, i) => {
    if (INDEX.test(segment)) return Number(segment);
    if (KEY.test(segment)) return segment;
    const which = segment === '' ? 'an empty segment' : `"${segment}"`;
    throw new TypeError(`segment ${i + 1} of "${text}" is ${which}; use keys and numbers separated by dots`);
  });
}

/**
 * Writes a path in `--set` form: `strategies.0.params.fast`.
 * @param path - the path
 * @returns the dotted text
 */
export function formatSetPath(path: YamlPath): string {
  return path.join('.');
}

/**
 * Parses one `--set path=value` argument.
 * @param arg - the argument as typed
 * @returns the override
 * @throws TypeError when there is no `=`, the path is malformed, or the value is not YAML
 */
export function parseSetOverride(arg: string): SetOverride {
  const eq = arg.indexOf('=');
  if (eq < 0) throw new TypeError('must look like path=value (no "=" found)');
  const path = parseSetPath(arg.slice(0, eq));
  let value: unknown;
  try {
    value = strictYamlValue(arg.slice(eq + 1));
  } catch (error) {
    throw new TypeError(`has a value that is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  return { path, value, arg };
}

/**
 * An override for the loader: a `--set` argument as typed, an option that stands for one
 * (`--from X` is `backtest.from=X`), so that problems name what the user actually typed, or an
 * `--unset` of a path (the key is removed, so its default or absence applies).
 */
export type OverrideArg =
  | string
  | { readonly set: string; readonly shownAs: string }
  | { readonly unset: string; readonly shownAs: string };

/**
 * The override an `--unset path` argument stands for.
 * @param path - the path as typed
 * @returns the override, shown as `--unset path` in problems
 */
export function unsetOverride(path: string): OverrideArg {
  return { unset: path, shownAs: `--unset ${path}` };
}

/**
 * Applies `--set` and `--unset` arguments to a parsed config, before validation. A set may add a
 * key to an existing map (validation then judges it) but may not index past the end of a list or
 * reach through a plain value; an unset removes a key or list item that is there (a path that is
 * not is a problem, so a typo does not pass silently).
 * @param source - the parsed config; changed in place
 * @param args - the arguments, applied in order
 * @returns one problem per argument that could not be applied
 */
export function applySetOverrides(source: ConfigSource, args: readonly OverrideArg[]): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const input of args) {
    if (typeof input !== 'string' && 'unset' in input) {
      const problem = applyUnset(source, input.unset, input.shownAs);
      if (problem !== undefined) problems.push(problem);
      continue;
    }
    const arg = typeof input === 'string' ? input : input.set;
    const where = typeof input === 'string' ? `--set ${input}` : input.shownAs;
    const subject = where.split(' ')[0] ?? '--set';
    let override: SetOverride;
    try {
      override = parseSetOverride(arg);
    } catch (error) {
      problems.push({ path: [], subject, message: (error as Error).message, where });
      continue;
    }
    const blocked = blockedAt(source, override.path);
    if (blocked !== undefined) {
      problems.push({ path: override.path, subject, message: blocked, where });
      continue;
    }
    try {
      source.doc.setIn(override.path, source.doc.createNode(override.value));
      source.noteOverride({ path: override.path, where });
    } catch (error) {
      problems.push({
        path: override.path,
        subject,
        message: `cannot be applied: ${(error as Error).message}`,
        where,
      });
    }
  }
  return problems;
}

function applyUnset(source: ConfigSource, text: string, where: string): ConfigProblem | undefined {
  let path: YamlPath;
  try {
    path = parseSetPath(text);
  } catch (error) {
    return { path: [], subject: '--unset', message: (error as Error).message, where };
  }
  if (source.lookup(path).depth < path.length)
    return {
      path,
      subject: '--unset',
      message: `has nothing to remove: the config has no ${formatYamlPath(path)}`,
      where,
    };
  source.doc.deleteIn(path);
  source.noteOverride({ path, where });
  return undefined;
}

function blockedAt(source: ConfigSource, path: YamlPath): string | undefined {
  for (let depth = 0; depth < path.length; depth += 1) {
    const parentPath = path.slice(0, depth);
    const { node, depth: found } = source.lookup(parentPath);
    if (found < parentPath.length || node === undefined) return undefined;
    const segment = path[depth] as string | number;
    const name = depth === 0 ? 'the config' : formatYamlPath(parentPath);
    if (isSeq(node)) {
      if (typeof segment !== 'number')
        return `cannot set "${segment}": ${name} is a list, so use an item number`;
      if (segment >= node.items.length) {
        return `cannot set item ${segment}: ${name} has ${node.items.length} item${node.items.length === 1 ? '' : 's'}`;
      }
    } else if (!isMap(node)) {
      return `cannot set "${segment}" inside ${name}, which is a plain value`;
    }
  }
  return undefined;
}
