/** A path into a config: map keys and list indexes, from the root. */
export type YamlPath = readonly (string | number)[];

/**
 * Writes a path the way a user reads it: `strategies[0].risk.maxOrderQty`.
 * @param path - the path
 * @returns the dotted path with indexes in brackets; `(root)` for the empty path
 */
export function formatYamlPath(path: YamlPath): string {
  if (path.length === 0) return '(root)';
  let text = '';
  for (const segment of path) {
    text += typeof segment === 'number' ? `[${segment}]` : text === '' ? segment : `.${segment}`;
  }
  return text;
}

/**
 * The short name an error sentence starts with: the last key and the key before it, with the
 * indexes between (`risk.maxOrderQty`, `strategies[0].use`, `venue.apiSecret`, `mode`).
 * @param path - the full path
 * @returns the tail of the path that names the field
 */
export function subjectOf(path: YamlPath): string {
  if (path.length === 0) return 'the config';
  let keysSeen = 0;
  let start = path.length;
  while (start > 0 && keysSeen < 2) {
    start -= 1;
    if (typeof path[start] === 'string') keysSeen += 1;
  }
  return formatYamlPath(path.slice(start));
}

/**
 * Whether `prefix` is `path` or one of its ancestors.
 * @param prefix - the candidate ancestor
 * @param path - the path
 * @returns true when every segment of prefix starts path
 */
export function isPathPrefix(prefix: YamlPath, path: YamlPath): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => segment === path[i]);
}
