import { isAlias, isMap, isScalar, type Node } from 'yaml';
import type { ConfigProblem } from './config-problem.ts';
import type { ConfigSource } from './config-source.ts';
import { formatYamlPath, type YamlPath } from './yaml-path.ts';

/** The one form a credential may take in a config: a whole reference, no default, no other text. */
const EXACT_REFERENCE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;
/** Any reference's variable name, with or without a default, for a refused value's names. */
const ANY_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}/g;

/** What checking the secret paths of a config found. */
export interface SecretPathCheck {
  /** The variables the secret paths refer to; no other field may refer to them. */
  readonly names: ReadonlySet<string>;
  /** Located problems: inline credentials, defaults, aliases and anchors on a secret's way. */
  readonly problems: readonly ConfigProblem[];
  /**
   * Whether an anchor or alias lies on a secret's way: the secrets must then stay unsubstituted,
   * or resolving the aliases would copy them into fields that print and quote their values.
   */
  readonly aliased: boolean;
}

/**
 * Checks that each secret path holds exactly one `${NAME}` reference written in place. A literal,
 * a `${NAME:-default}` (the default is a credential in the file) or a reference with other text
 * around it is refused; so is an alias (`*lit`) at the path or on the way to it, which would take
 * its value from elsewhere in the file, and an anchor (`&s`) there, which would let `*s` copy the
 * credential into any other field (a name, a log level, a param) whose value is printed.
 * @param source - the parsed config, before substitution
 * @param secretPaths - the paths whose value must come from the environment
 * @returns the referenced names, the problems, and whether an alias or anchor was met
 */
export function checkSecretPaths(source: ConfigSource, secretPaths: readonly YamlPath[]): SecretPathCheck {
  const names = new Set<string>();
  const problems: ConfigProblem[] = [];
  const reported = new Set<string>();
  let aliased = false;
  const report = (path: YamlPath, message: string): void => {
    const key = formatYamlPath(path);
    if (reported.has(key)) return;
    reported.add(key);
    problems.push(source.problem(path, message));
  };
  for (const secretPath of secretPaths) {
    const secretName = formatYamlPath(secretPath);
    let node = (source.doc.contents ?? undefined) as Node | undefined;
    for (let depth = 0; node !== undefined; depth += 1) {
      const path = secretPath.slice(0, depth);
      if (isAlias(node)) {
        aliased = true;
        report(
          path,
          `is an alias (*${node.source}); ${secretName} must be an \${ENV_VAR} reference written in place, not a value taken from elsewhere in the file`,
        );
        break;
      }
      if (node.anchor !== undefined) {
        aliased = true;
        report(
          path,
          `carries an anchor (&${node.anchor}); a venue credential may only be used at ${secretName}, so it and what holds it may not be anchored and aliased into other fields`,
        );
      }
      if (depth === secretPath.length) {
        checkSecretValue(node, secretPath, names, report);
        break;
      }
      node = childNode(node, secretPath[depth] as string | number);
    }
  }
  return { names, problems, aliased };
}

function checkSecretValue(
  node: Node,
  path: YamlPath,
  names: Set<string>,
  report: (path: YamlPath, message: string) => void,
): void {
  if (isScalar(node) && node.value === null) return;
  const text = isScalar(node) && typeof node.value === 'string' ? node.value : '';
  const exact = EXACT_REFERENCE.exec(text)?.[1];
  if (exact !== undefined) {
    names.add(exact);
    return;
  }
  // A refused value's variables stay guarded too, so the one problem shown is the right one.
  for (const reference of text.matchAll(ANY_REFERENCE)) names.add(reference[1] as string);
  report(
    path,
    text.includes('${')
      ? `must be exactly one \${ENV_VAR} reference, with no default and no text around it: either would be a credential written in the file`
      : `must be an \${ENV_VAR} reference, not the secret itself, so it never sits in a file`,
  );
}

function childNode(node: Node, segment: string | number): Node | undefined {
  if (!isMap(node)) return undefined;
  const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(segment));
  return (pair?.value ?? undefined) as Node | undefined;
}
