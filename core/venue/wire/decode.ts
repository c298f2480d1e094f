import type { z } from 'zod';
import { DecodeError } from '../errors.ts';

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    out += typeof key === 'number' ? `[${key}]` : out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

interface RawIssue {
  readonly code?: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly errors?: readonly (readonly RawIssue[])[];
}

/**
 * A union failure says only "invalid input" at the union's path; the useful issue is inside the
 * branch that got furthest (the deepest path), e.g. `data[1].orderQty` of a list reply.
 */
function deepest(issue: RawIssue): { path: PropertyKey[]; message: string } {
  if (issue.code !== 'invalid_union' || issue.errors === undefined || issue.errors.length === 0) {
    return { path: [...issue.path], message: issue.message };
  }
  let best = { path: [...issue.path], message: issue.message };
  for (const branch of issue.errors) {
    const first = branch[0];
    if (first === undefined) continue;
    const inner = deepest(first);
    const candidate = { path: [...issue.path, ...inner.path], message: inner.message };
    if (candidate.path.length > best.path.length) best = candidate;
  }
  return best;
}

/**
 * Decodes a venue message with a zod schema. Unknown extra fields pass through (the schemas are
 * loose); a missing or mistyped required field throws.
 * @param schema - the wire schema
 * @param value - the parsed JSON
 * @param where - what is being decoded, for the error message
 * @param pathPrefix - prepended to field paths in errors (`data` when decoding an envelope's data)
 * @returns the decoded value
 * @throws DecodeError naming the first offending field path
 */
export function decodeWire<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: string,
  pathPrefix: readonly PropertyKey[] = [],
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new DecodeError(
    where,
    result.error.issues.map((issue) => {
      const found = deepest(issue as RawIssue);
      return { path: formatPath([...pathPrefix, ...found.path]), problem: found.message };
    }),
  );
}

/**
 * Parses JSON text, turning a syntax error into a DecodeError.
 * @param text - the raw frame or body
 * @param where - what is being decoded
 * @returns the parsed value
 * @throws DecodeError when the text is not JSON
 */
export function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new DecodeError(where, [{ path: '', problem: `is not JSON (${(error as Error).message})` }]);
  }
}
