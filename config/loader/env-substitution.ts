import { isMap, isScalar, isSeq, type Node, Scalar } from 'yaml';
import type { ConfigProblem } from './config-problem.ts';
import type { ConfigSource } from './config-source.ts';
import { type EnvValues, envValueOf } from './env-value.ts';
import { checkSecretPaths } from './secret-paths.ts';
import { strictYamlValue } from './strict-yaml-value.ts';
import { isPathPrefix, type YamlPath } from './yaml-path.ts';

const REFERENCE = /\$\$\{|\$\{([^}]*)\}|\$\{/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A reference's variable name and its default: `NAME:-default` gives both, `NAME` no default.
 * @param body - what stands between `${` and `}`
 */
function referenceParts(body: string): { readonly name: string; readonly fallback: string | undefined } {
  const split = body.indexOf(':-');
  return split < 0
    ? { name: body, fallback: undefined }
    : { name: body.slice(0, split), fallback: body.slice(split + 2) };
}

/** A string with its `${...}` references replaced, or why it could not be. */
type Substituted = { readonly text: string; readonly references: number } | { readonly problem: string };

/**
 * Replaces `${NAME}` and `${NAME:-default}` in one string; `$${` writes a literal `${`. A variable
 * that is not set may be given as a file, `NAME_FILE` (see {@link envValueOf}).
 * @param text - the scalar's text
 * @param env - the values
 * @returns the new text and how many references it had, or a sentence naming what is missing
 */
export function substituteText(text: string, env: EnvValues): Substituted {
  let references = 0;
  let problem: string | undefined;
  const out = text.replace(REFERENCE, (match, body: string | undefined) => {
    if (match === '$${') return '${';
    if (body === undefined) {
      problem ??= `has a "\${" without a closing "}"`;
      return match;
    }
    references += 1;
    const { name, fallback } = referenceParts(body);
    if (!NAME.test(name)) {
      problem ??= `refers to \${${body}}, which is not a variable name (letters, digits and _)`;
      return match;
    }
    const found = envValueOf(env, name);
    if ('problem' in found) {
      problem ??= `refers to \${${name}}: ${found.problem}`;
      return match;
    }
    const { value } = found;
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    problem ??= `refers to \${${name}}, which is ${value === '' ? 'empty' : 'not set'} (environment or .env)`;
    return match;
  });
  return problem === undefined ? { text: out, references } : { problem };
}

/**
 * The variable names a string refers to (`${NAME}` and `${NAME:-default}`; `$${` is a literal).
 * @param text - a scalar's text
 * @returns the names, in order, repeats kept
 */
function referencedNames(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(REFERENCE)) {
    const body = match[1];
    if (body !== undefined) names.push(referenceParts(body).name);
  }
  return names;
}

/**
 * Substitutes environment references in every string of a parsed config, in place. A plain
 * (unquoted) scalar that is exactly one reference is re-read as YAML, so `port: ${PORT}` gives
 * a number; quoted scalars and secrets stay strings. Secret paths must hold exactly one
 * reference, written in place (see {@link checkSecretPaths}): a credential written into the
 * file itself is refused, and so is a reference to a secret's variable from any other field
 * (a URL, a param), where the credential would leave the process in plain text. When an alias
 * or anchor lies on a secret's way the secrets are left unsubstituted, so no alias resolved
 * later can carry their values anywhere.
 * @param source - the parsed config
 * @param env - the values
 * @param secretPaths - paths whose value must come from the environment
 * @returns problems (unset variables, malformed references, inline or aliased secrets) and their paths
 */
export function substituteEnv(
  source: ConfigSource,
  env: EnvValues,
  secretPaths: readonly YamlPath[],
): ConfigProblem[] {
  const secrets = checkSecretPaths(source, secretPaths);
  const problems: ConfigProblem[] = [...secrets.problems];
  visitScalars(source.doc.contents as Node | null, [], (scalar, path) => {
    if (typeof scalar.value !== 'string' || !scalar.value.includes('$')) return;
    const isSecret = secretPaths.some(
      (secret) => isPathPrefix(secret, path) && secret.length === path.length,
    );
    if (isSecret && secrets.aliased) return;
    const leaked = isSecret
      ? undefined
      : referencedNames(scalar.value).find((name) => secrets.names.has(name));
    if (leaked !== undefined) {
      problems.push(
        source.problem(
          path,
          `refers to \${${leaked}}, which holds a venue credential (venue.apiKey / venue.apiSecret); a credential may only be used there`,
        ),
      );
      return;
    }
    const result = substituteText(scalar.value, env);
    if ('problem' in result) {
      problems.push(source.problem(path, result.problem));
      return;
    }
    const wholeReference = /^\$\{[^}]*\}$/.test(scalar.value);
    scalar.value =
      scalar.type === Scalar.PLAIN && wholeReference && !isSecret ? yamlScalarOf(result.text) : result.text;
  });
  return problems;
}

function yamlScalarOf(text: string): unknown {
  try {
    const value: unknown = strictYamlValue(text);
    return value !== null && typeof value === 'object' ? text : value;
  } catch {
    return text;
  }
}

function visitScalars(
  node: Node | null,
  path: YamlPath,
  visit: (scalar: Scalar, path: YamlPath) => void,
): void {
  if (isScalar(node)) {
    visit(node, path);
  } else if (isMap(node)) {
    for (const pair of node.items) {
      if (isScalar(pair.key))
        visitScalars(pair.value as Node | null, [...path, String(pair.key.value)], visit);
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, index) => {
      visitScalars(item as Node | null, [...path, index], visit);
    });
  }
}
