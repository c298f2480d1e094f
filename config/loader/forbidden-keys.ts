import { isMap, isScalar, isSeq, type Node, type Pair, stringify } from 'yaml';
import type { ConfigProblem } from './config-problem.ts';
import type { ConfigSource } from './config-source.ts';
import { subjectOf, type YamlPath } from './yaml-path.ts';

/**
 * Keys no config map may hold: `__proto__` becomes the object's prototype (or is dropped) when
 * the YAML is read into objects, so it would pass every key check unseen.
 */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__']);

/**
 * The keys anywhere in a config (strategy params included) that no map may hold, each a problem
 * located at the key, as an unknown key is.
 * @param source - the parsed config
 * @returns one problem per such key
 */
export function forbiddenKeyProblems(source: ConfigSource): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  walkPairs(source.doc.contents as Node | null, [], (pair, at) => {
    if (!isScalar(pair.key) || !FORBIDDEN_KEYS.has(String(pair.key.value))) return true;
    problems.push(source.problem(at, 'is not a known key (no map may have a __proto__ key)', 'key'));
    return false;
  });
  return problems;
}

/**
 * The lists and maps written as keys anywhere in a config (`? [a, b]`), each a problem at the
 * key's own line. Reading the YAML into objects would turn such a key into text (`[ a, b ]`) with
 * a Node warning, so a config holding one is refused before it is read.
 * @param source - the parsed config
 * @returns one problem per such key
 */
export function collectionKeyProblems(source: ConfigSource): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  walkPairs(source.doc.contents as Node | null, [], (pair, _at, parent) => {
    if (!isMap(pair.key) && !isSeq(pair.key)) return true;
    // Named as reading it into objects would name it.
    const path = [...parent, stringify(pair.key.toJSON(), { collectionStyle: 'flow' }).trim()];
    const message = 'is not a known key: a config key is a plain name, not a list or a map';
    const offset = pair.key.range?.[0];
    problems.push(
      offset === undefined
        ? source.problem(path, message, 'key')
        : { ...source.problemAtOffset(offset, message), path, subject: subjectOf(path) },
    );
    return false;
  });
  return problems;
}

/**
 * Visits every pair of every map under a node with its path; descends into a pair's value when
 * the visitor returns true.
 */
function walkPairs(
  node: Node | null,
  path: YamlPath,
  visit: (pair: Pair, at: YamlPath, parent: YamlPath) => boolean,
): void {
  if (isMap(node)) {
    for (const pair of node.items) {
      const at = [...path, isScalar(pair.key) ? String(pair.key.value) : String(pair.key)];
      if (visit(pair, at, path)) walkPairs(pair.value as Node | null, at, visit);
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, index) => {
      walkPairs(item as Node | null, [...path, index], visit);
    });
  }
}
