import type { z } from 'zod';
import { DecodeError } from '../errors.ts';

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    out += typeof key === 'number' ? `[${key}]` : out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

/**
 * Decodes a venue message with a zod schema. Unknown extra fields pass through (the schemas are
 * loose); a missing or mistyped required field throws.
 * @param schema - the wire schema
 * @param value - the parsed JSON
 * @param where - what is being decoded, for the error message
 * @returns the decoded value
 * @throws DecodeError naming the first offending field path
 */
export function decodeWire<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new DecodeError(
    where,
    result.error.issues.map((issue) => ({ path: formatPath(issue.path), problem: issue.message })),
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
