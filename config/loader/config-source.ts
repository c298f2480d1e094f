import { type Document, isMap, isScalar, isSeq, type LineCounter, type Node } from 'yaml';
import type { ConfigProblem } from './config-problem.ts';
import { isPathPrefix, subjectOf, type YamlPath } from './yaml-path.ts';

/** An override that was applied: the path it set and how the user typed it (`--set a.b=1`). */
export interface AppliedOverride {
  readonly path: YamlPath;
  readonly where: string;
}

/** The node found at a path, or the deepest existing ancestor when the path does not exist. */
export interface NodeLookup {
  /** The node at the full path, if present. */
  readonly node: Node | undefined;
  /** The key node of the last segment, if it is a map key that is present. */
  readonly key: Node | undefined;
  /** How many segments of the path exist. */
  readonly depth: number;
  /** The deepest present node on the path and, when it is a map value, its key node. */
  readonly deepest: { readonly node: Node | undefined; readonly key: Node | undefined };
}

/**
 * A parsed config file that remembers where every value was written, so problems found after
 * parsing (by zod, or by a strategy's own params schema) can still say `file:line:col`.
 */
export class ConfigSource {
  readonly doc: Document;
  readonly file: string;
  readonly #lines: LineCounter;
  readonly #overrides: AppliedOverride[] = [];

  /**
   * @param doc - the parsed YAML document
   * @param lines - the line counter the document was parsed with
   * @param file - the file name as the user gave it, shown in every location
   */
  constructor(doc: Document, lines: LineCounter, file: string) {
    this.doc = doc;
    this.#lines = lines;
    this.file = file;
  }

  /**
   * Records that a `--set` put a value at a path, so problems there point at the argument.
   * @param override - the path and the argument
   */
  noteOverride(override: AppliedOverride): void {
    this.#overrides.push(override);
  }

  /**
   * Finds the node at a path.
   * @param path - the path from the root
   * @returns the node, its key node, and the deepest existing ancestor
   */
  lookup(path: YamlPath): NodeLookup {
    let node = (this.doc.contents ?? undefined) as Node | undefined;
    let key: Node | undefined;
    let depth = 0;
    let deepest = { node, key };
    for (const segment of path) {
      const next = childOf(node, segment);
      if (next === undefined) return { node: undefined, key: undefined, depth, deepest };
      node = next.value;
      key = next.key;
      depth += 1;
      deepest = { node, key };
    }
    return { node, key, depth, deepest };
  }

  /**
   * The first `--set` that wrote at or under a path.
   * @param path - the path
   * @returns the argument as typed (`--set ...`), or undefined when none did
   */
  overrideUnder(path: YamlPath): string | undefined {
    return this.#overrides.find((o) => isPathPrefix(path, o.path))?.where;
  }

  /**
   * Where the value at a path was written.
   * @param path - the path
   * @param at - `key` points at the key (unknown keys); `value` at the value
   * @returns `file:line:col`, or `--set ...` for a value set on the command line
   */
  where(path: YamlPath, at: 'key' | 'value' = 'value'): { where: string; line?: number; col?: number } {
    const override = this.#overrides.findLast((o) => isPathPrefix(o.path, path));
    if (override !== undefined) return { where: override.where };
    const found = this.lookup(path);
    const exact = found.depth === path.length;
    // A missing field is reported at its parent's key, the line a user would add it under.
    const target = exact
      ? at === 'key'
        ? (found.key ?? found.node)
        : (found.node ?? found.key)
      : (found.deepest.key ?? found.deepest.node);
    const offset = target?.range?.[0];
    if (offset === undefined) return { where: `${this.file}:1:1`, line: 1, col: 1 };
    const { line, col } = this.#lines.linePos(offset);
    return { where: `${this.file}:${line}:${col}`, line, col };
  }

  /**
   * Builds a located problem.
   * @param path - the field
   * @param message - the sentence after the subject
   * @param at - point at the key or the value
   * @param standalone - the message is a sentence of its own, set off by a colon
   * @returns the problem
   */
  problem(path: YamlPath, message: string, at: 'key' | 'value' = 'value', standalone = false): ConfigProblem {
    return {
      path,
      subject: subjectOf(path),
      message,
      ...(standalone ? { standalone } : {}),
      ...this.where(path, at),
    };
  }

  /**
   * A file-level problem (syntax errors) at a character offset.
   * @param offset - character offset in the file
   * @param message - the sentence
   * @returns the problem
   */
  problemAtOffset(offset: number, message: string): ConfigProblem {
    const { line, col } = this.#lines.linePos(offset);
    return { path: [], subject: 'YAML', message, where: `${this.file}:${line}:${col}`, line, col };
  }
}

function childOf(
  node: Node | undefined,
  segment: string | number,
): { key: Node | undefined; value: Node | undefined } | undefined {
  if (isMap(node)) {
    const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(segment));
    return pair === undefined
      ? undefined
      : { key: pair.key as Node, value: (pair.value ?? undefined) as Node | undefined };
  }
  if (isSeq(node) && typeof segment === 'number') {
    const item = node.items[segment];
    return item === undefined ? undefined : { key: undefined, value: item as Node };
  }
  return undefined;
}
