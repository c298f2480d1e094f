import { z } from 'zod';
import type { YamlPath } from './yaml-path.ts';

/** A JSON Schema node, as far as key lookup needs it. */
interface SchemaNode {
  readonly properties?: Record<string, SchemaNode>;
  readonly items?: SchemaNode;
  readonly additionalProperties?: SchemaNode | boolean;
  readonly anyOf?: readonly SchemaNode[];
  readonly oneOf?: readonly SchemaNode[];
  readonly allOf?: readonly SchemaNode[];
  readonly const?: unknown;
}

/**
 * Lists the keys a map at a path may have (in any of its forms); empty when unknown. `formsWith`
 * names the forms of the map that take a key, by their constant fields (`model: flat`), when the
 * map is a union of such forms.
 */
export type KnownKeys = ((path: YamlPath) => readonly string[]) & {
  readonly formsWith?: (path: YamlPath, key: string) => readonly string[];
};

/**
 * Key lookup for a zod schema, through its JSON Schema (input side), so an unknown-key message
 * can suggest the key the user meant.
 * @param schema - the zod schema of the whole value
 * @returns a lookup from a map's path to its allowed keys (empty if the schema cannot say)
 */
export function knownKeysOf(schema: z.ZodType): KnownKeys {
  let root: SchemaNode;
  try {
    root = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as SchemaNode;
  } catch {
    return () => [];
  }
  const keysAt = (path: YamlPath): readonly string[] => {
    const keys = new Set<string>();
    for (const node of nodesAt([root], path))
      for (const key of Object.keys(node.properties ?? {})) keys.add(key);
    return [...keys];
  };
  const formsWith = (path: YamlPath, key: string): readonly string[] => {
    const forms = new Set<string>();
    for (const node of nodesAt([root], path)) {
      if (node.properties?.[key] === undefined) continue;
      for (const [name, field] of Object.entries(node.properties))
        if (field.const !== undefined) forms.add(`${name}: ${String(field.const)}`);
    }
    return [...forms];
  };
  return Object.assign(keysAt, { formsWith });
}

function expand(nodes: readonly SchemaNode[]): SchemaNode[] {
  return nodes.flatMap((node) => [
    node,
    ...expand([...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])]),
  ]);
}

function nodesAt(nodes: readonly SchemaNode[], path: YamlPath): SchemaNode[] {
  let current = expand(nodes);
  for (const segment of path) {
    current = expand(
      current.flatMap((node) => {
        if (typeof segment === 'number') return node.items === undefined ? [] : [node.items];
        const property = node.properties?.[segment];
        if (property !== undefined) return [property];
        return typeof node.additionalProperties === 'object' ? [node.additionalProperties] : [];
      }),
    );
  }
  return current;
}
