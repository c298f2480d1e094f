import { D } from '../../core/model/index.ts';
import {
  formatSetPath,
  type OverrideArg,
  parseSetPath,
  strictYamlValue,
  type YamlPath,
} from '../loader/index.ts';

/** One axis of a parameter sweep: a config path and the values it takes. */
export interface GridAxis {
  readonly path: YamlPath;
  /** Values as typed, each a YAML scalar (`5`, `0.5`, `true`, `touch`), each YAML value once. */
  readonly values: readonly string[];
  /** Values given again (`3,3`, `3` then `3.0`, or inside a range), dropped; absent when none was. */
  readonly repeated?: readonly string[];
}

/**
 * Most combinations one sweep may have unless `--max-combinations` raises it (Keel's choice: a
 * typo like 1,2,...,1000 x 3 axes stops early; checking 10 000 combinations of the example before
 * any runs takes about 5 s, and backtesting them, even on its 30-minute session, about 15 minutes
 * on 2 workers).
 */
export const MAX_GRID_COMBINATIONS = 10_000;

/** How a grid over the limit is told it can go on. */
const RAISE = '(--max-combinations raises the limit)';

/** A range's number: decimal, with an exponent if any (`1e6`, as a size is often typed). */
const NUMBER = String.raw`-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?`;

/** `from..to` or `from..to:step` ({@link NUMBER}s; the step, checked positive, 1 when left out). */
const RANGE = new RegExp(`^(${NUMBER})\\.\\.(${NUMBER})(?::(${NUMBER}))?$`);

/**
 * The values of a range token, `from` to `to` inclusive, `step` apart, computed in decimal so
 * `0.1..0.3:0.1` gives 0.1, 0.2, 0.3 (not 0.30000000000000004); undefined when the token is not a range.
 */
function rangeValues(arg: string, token: string, limit: number): string[] | undefined {
  const match = RANGE.exec(token);
  if (match === null) return undefined;
  const [, fromText, toText, stepText] = match as unknown as [string, string, string, string | undefined];
  const from = D(fromText);
  const to = D(toText);
  const step = D(stepText ?? '1');
  if (step.isZero()) throw new TypeError(`--grid ${arg}: the range ${token} has a step of 0`);
  if (step.isNegative())
    throw new TypeError(
      `--grid ${arg}: the range ${token} has a step of ${stepText}; a range's step must be positive`,
    );
  if (to.lt(from)) throw new TypeError(`--grid ${arg}: the range ${token} ends below where it starts`);
  const count = to.minus(from).div(step).floor().toNumber() + 1;
  if (count > limit) {
    throw new TypeError(
      `--grid ${arg}: the range ${token} has ${count} values, more than the ${limit} allowed ${RAISE}`,
    );
  }
  return Array.from({ length: count }, (_, k) => from.plus(step.mul(k)).toFixed());
}

/**
 * Parses a `--grid` argument: `strategies.0.params.fast=5,10,20`, where a value may also be a
 * range `from..to[:step]` (inclusive, step 1 when left out), as in `strategies.0.params.fast=5..30:5` or `...fast=2,5..7`.
 * @param arg - the argument as typed
 * @param limit - most values a range may hold: the grid's limit (`--max-combinations`)
 * @returns the axis, ranges expanded, each YAML value once (the repeats named in `repeated`)
 * @throws TypeError naming what is wrong (no `=`, bad path, empty or non-scalar value, a range
 *   with a step of 0 or below, ending below its start or holding more values than `limit`)
 */
export function parseGridAxis(arg: string, limit = MAX_GRID_COMBINATIONS): GridAxis {
  const eq = arg.indexOf('=');
  if (eq < 0) throw new TypeError(`--grid ${arg} must look like path=v1,v2,... (no "=" found)`);
  const path = parseSetPath(arg.slice(0, eq));
  const values = arg
    .slice(eq + 1)
    .split(',')
    .flatMap((token) => rangeValues(arg, token.trim(), limit) ?? [token]);
  const seen = new Set<string>();
  const kept: string[] = [];
  const repeated: string[] = [];
  for (const value of values) {
    if (value.trim() === '') throw new TypeError(`--grid ${arg} has an empty value`);
    let parsed: unknown;
    try {
      parsed = strictYamlValue(value);
    } catch {
      throw new TypeError(`--grid ${arg}: ${JSON.stringify(value)} is not a YAML value`);
    }
    if (parsed !== null && typeof parsed === 'object') {
      throw new TypeError(`--grid ${arg}: ${JSON.stringify(value)} must be a plain value, not a list or map`);
    }
    // `3` and `3.0` are one YAML value: the same backtest, run once.
    const key = JSON.stringify(parsed) ?? value;
    if (seen.has(key)) repeated.push(value);
    else {
      seen.add(key);
      kept.push(value);
    }
  }
  return repeated.length === 0 ? { path, values: kept } : { path, values: kept, repeated };
}

/**
 * Every combination of the axes, each as the `--set` arguments that make it, first axis
 * slowest. Axes on the same path are refused: the later one would silently win.
 * @param axes - the axes, at least one
 * @param limit - most combinations allowed (`--max-combinations`)
 * @returns one list of `path=value` arguments per combination
 * @throws TypeError when two axes share a path or the grid has more combinations than `limit`
 */
export function gridCombinations(axes: readonly GridAxis[], limit = MAX_GRID_COMBINATIONS): string[][] {
  const paths = axes.map((axis) => formatSetPath(axis.path));
  const repeated = paths.find((path, i) => paths.indexOf(path) !== i);
  if (repeated !== undefined)
    throw new TypeError(`--grid names ${repeated} twice; give all its values in one --grid`);
  const total = axes.reduce((n, axis) => n * axis.values.length, 1);
  if (total > limit)
    throw new TypeError(`the grid has ${total} combinations, more than the ${limit} allowed ${RAISE}`);
  let combinations: string[][] = [[]];
  axes.forEach((axis, i) => {
    combinations = combinations.flatMap((prefix) =>
      axis.values.map((value) => [...prefix, `${paths[i]}=${value}`]),
    );
  });
  return combinations;
}

/**
 * Refuses an override on a grid axis's path: the loader applies the grid's value after it, so
 * the backtests would run the grid's values while the override only looked like it counted.
 * @param sets - the sweep's own overrides: `--set` arguments as typed, options standing for one (`--from`), and `--unset`s
 * @param axes - the grid's axes
 * @returns the sentence naming the first override and the axis it collides with; undefined when none does
 */
export function overrideOnGridAxis(
  sets: readonly OverrideArg[],
  axes: readonly GridAxis[],
): string | undefined {
  const paths = axes.map((axis) => formatSetPath(axis.path));
  for (const set of sets) {
    if (typeof set !== 'string' && 'unset' in set) continue; // the grid's value is set after it
    const text = typeof set === 'string' ? set : set.set;
    const eq = text.indexOf('=');
    if (eq < 0) continue; // a --set without = is the loader's to name
    let path: string;
    try {
      path = formatSetPath(parseSetPath(text.slice(0, eq)));
    } catch {
      continue; // a malformed --set is the loader's to name
    }
    if (!paths.includes(path)) continue;
    const shown = typeof set === 'string' ? `--set ${set}` : set.shownAs;
    return `${shown} and --grid ${path}=... both set ${path} (the grid's values would run); give its values in the --grid alone`;
  }
  return undefined;
}
