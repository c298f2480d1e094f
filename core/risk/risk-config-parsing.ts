import { z } from 'zod';
import type { Dec } from '../model/index.ts';
import { D } from '../model/index.ts';

/**
 * Writes Decimals back as their exact text, so an already parsed config (from config/) goes
 * through the same schema as a hand-written one.
 */
function decimalsAsText(value: unknown): unknown {
  if (D.isDecimal(value)) return (value as Dec).toFixed();
  if (Array.isArray(value)) return value.map(decimalsAsText);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, decimalsAsText(inner)]));
  }
  return value;
}

/**
 * Parses a risk config section, as written in config or already parsed (Decimals included).
 * @param schema - the section's schema
 * @param input - the section
 * @param where - names the section in the error, e.g. `risk config`
 * @returns the parsed section
 * @throws RangeError listing every invalid field when the section does not match the schema
 */
export function parseOrThrow<T>(schema: z.ZodType<T>, input: unknown, where: string): T {
  const result = schema.safeParse(decimalsAsText(input));
  if (!result.success) throw new RangeError(`${where} is invalid:\n${z.prettifyError(result.error)}`);
  return result.data;
}
