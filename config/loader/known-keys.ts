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
}

/** Lists the keys a map at a path may have; empty when unknown. */
export type KnownKeys = (path: YamlPath) => readonly string[];

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
  return (path) => {
    const keys = new Set<string>();
    for (const node of nodesAt([root], path))
      for (const key of Object.keys(node.properties ?? {})) keys.add(key);
    return [...keys];
  };
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
