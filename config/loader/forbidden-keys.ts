import { isMap, isScalar, isSeq, type Node } from 'yaml';
import type { ConfigProblem } from './config-problem.ts';
import type { ConfigSource } from './config-source.ts';
import type { YamlPath } from './yaml-path.ts';

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
  const walk = (node: Node | null, path: YamlPath): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isScalar(pair.key)) continue;
        const key = String(pair.key.value);
        const at = [...path, key];
        if (FORBIDDEN_KEYS.has(key)) {
          problems.push(source.problem(at, 'is not a known key (no map may have a __proto__ key)', 'key'));
          continue;
        }
        walk(pair.value as Node | null, at);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => {
        walk(item as Node | null, [...path, index]);
      });
    }
  };
  walk(source.doc.contents as Node | null, []);
  return problems;
}
