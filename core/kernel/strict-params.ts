import type { ZodType } from 'zod';

/** The shape of a zod object schema this module looks at, from any copy of zod. */
interface ObjectSchemaLike {
  readonly _zod?: { readonly def?: { readonly type?: string; readonly catchall?: unknown } };
  strict?: () => unknown;
}

/**
 * A strategy's params schema as Keel parses it: a plain `z.object` (no catchall: zod would drop
 * unknown keys silently) becomes its `.strict()` form, so a misspelled parameter name in a
 * config is an error with a did-you-mean instead of a default quietly used. A schema that says
 * what to do with unknown keys (`z.strictObject`, `z.looseObject`, `.passthrough()`,
 * `.catchall()`) and any other schema are returned as they are. Keel's choice: the README
 * promises that unknown keys are errors, and a user's own plugin should not be the exception.
 * @param schema - the plugin's params schema
 * @returns the schema to parse params with
 */
export function strictParams<P>(schema: ZodType<P>): ZodType<P> {
  const like = schema as unknown as ObjectSchemaLike;
  const def = like._zod?.def;
  if (def?.type !== 'object' || def.catchall !== undefined || typeof like.strict !== 'function')
    return schema;
  return like.strict() as ZodType<P>;
}
