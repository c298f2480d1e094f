import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseEnv } from 'node:util';
import type { KeelConfig } from '../schema/index.ts';
import { ConfigInvalidError, type ConfigProblem } from './config-problem.ts';
import type { ConfigSource } from './config-source.ts';
import type { EnvValues } from './env-value.ts';
import { parseConfigText } from './parse-config.ts';
import type { OverrideArg } from './set-override.ts';
import { decodeUtf8 } from './utf8-text.ts';

/** A config loaded from a file: the validated config, where it came from, and its source map. */
export interface LoadedConfig {
  readonly config: KeelConfig;
  /** Absolute path of the config file. */
  readonly file: string;
  /** Directory of the config file: relative paths in it (recordings, plugins) start here. */
  readonly dir: string;
  /** Source positions, for problems found later (strategy params). */
  readonly source: ConfigSource;
}

/** What loading gives: a config, or located problems. */
export type ConfigLoadResult =
  | ({ readonly ok: true } & LoadedConfig)
  | { readonly ok: false; readonly problems: readonly ConfigProblem[] };

/** Inputs of {@link loadConfig}. */
export interface LoadConfigOptions {
  /** `--set path=value` arguments, applied before validation. */
  readonly overrides?: readonly OverrideArg[];
  /** Environment; defaults to process.env. A `.env` next to the config fills what it lacks. */
  readonly env?: EnvValues;
}

/**
 * Reads `.env` next to a config file, if there is one.
 * @param dir - the config's directory
 * @returns the variables it defines (empty when the file is absent)
 */
export function readDotEnv(dir: string): Record<string, string> {
  const file = join(dir, '.env');
  if (!existsSync(file)) return {};
  return parseEnv(readFileSync(file, 'utf8')) as Record<string, string>;
}

/**
 * Loads a config file: reads it, applies `--set` overrides, substitutes `${VAR}` from the
 * environment and from a `.env` file next to it (the environment wins), and validates it.
 * @param file - path of the YAML file, shown in locations as given
 * @param options - overrides and environment
 * @returns the config, or every problem with `file:line:col`
 */
export function loadConfig(file: string, options: LoadConfigOptions = {}): ConfigLoadResult {
  const absolute = resolve(file);
  let bytes: Buffer;
  try {
    bytes = readFileSync(absolute);
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : (error as Error).message;
    return {
      ok: false,
      problems: [{ path: [], subject: `config file ${file}`, message: reason, where: '' }],
    };
  }
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) {
    const where = `${file}:${decoded.line}:${decoded.col}`;
    return {
      ok: false,
      problems: [
        {
          path: [],
          subject: `config file ${file}`,
          message: `is not UTF-8 text: byte ${decoded.byte} (save it as UTF-8)`,
          where,
          line: decoded.line,
          col: decoded.col,
        },
      ],
    };
  }
  const text = decoded.text;
  const dir = dirname(absolute);
  const env = { ...readDotEnv(dir), ...definedOnly(options.env ?? process.env) };
  const parsed = parseConfigText(text, { file, env, overrides: options.overrides ?? [] });
  if (!parsed.ok) return parsed;
  return { ok: true, config: parsed.config, file: absolute, dir, source: parsed.source };
}

/**
 * Like {@link loadConfig}, for callers that treat a bad config as an error.
 * @param file - path of the YAML file
 * @param options - overrides and environment
 * @returns the loaded config
 * @throws ConfigInvalidError listing every problem, one sentence a line
 */
export function loadValidConfig(file: string, options: LoadConfigOptions = {}): LoadedConfig {
  const result = loadConfig(file, options);
  if (!result.ok) throw new ConfigInvalidError(result.problems);
  const { ok: _ok, ...loaded } = result;
  return loaded;
}

function definedOnly(env: EnvValues): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) out[name] = value;
  return out;
}
