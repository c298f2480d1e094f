import type { ZodType } from 'zod';

/** A zod 4 schema as this module looks at it, from any copy of zod. */
interface SchemaLike {
  readonly _zod?: { readonly def?: Record<string, unknown> & { readonly type?: string } };
  clone?: (def: Record<string, unknown>) => SchemaLike;
  strict?: () => SchemaLike;
}

/** Wrappers of one inner schema, by def type: the def key that holds it. */
const INNER_KEY: Readonly<Record<string, string>> = {
  optional: 'innerType',
  nullable: 'innerType',
  default: 'innerType',
  prefault: 'innerType',
  nonoptional: 'innerType',
  readonly: 'innerType',
  array: 'element',
  set: 'valueType',
  record: 'valueType',
  map: 'valueType',
  pipe: 'in',
};

/**
 * A strategy's params schema as Keel parses it: every plain `z.object` in it (no catchall: zod
 * would drop unknown keys silently) becomes its `.strict()` form, at the top and nested inside
 * objects, arrays, sets, records, maps, tuples, unions, the input side of pipes and the
 * optional/nullable/default/readonly wrappers, so a misspelled parameter name anywhere in a config is an error with a did-you-mean
 * instead of a default quietly used. An object that says what to do with unknown keys
 * (`z.looseObject`, `.passthrough()`, `.loose()`, `.catchall()`) is returned as it is with all it
 * holds; a `z.strictObject`'s fields are made strict in turn. Left as written: intersections
 * (each side would refuse the other's keys), lazy schemas, a recursive object where it meets
 * itself again (its first level is strict), the output side of pipes (`z.preprocess(fn, object)` and
 * `.transform(fn).pipe(object)` see what the function made, which may rightly hold more keys),
 * what a `.catch()` wraps (a refusal there would swap its fallback in silently) and zod/mini
 * objects. A schema with nothing to make
 * strict is returned itself. Keel's choice: the README promises that unknown keys are errors,
 * and a user's own plugin should not be the exception.
 * @param schema - the plugin's params schema
 * @returns the schema to parse params with
 */
export function strictParams<P>(schema: ZodType<P>): ZodType<P> {
  return strictDeep(schema as unknown as SchemaLike) as unknown as ZodType<P>;
}

function strictDeep(schema: SchemaLike): SchemaLike {
  const def = schema._zod?.def;
  if (def === undefined || typeof schema.clone !== 'function') return schema;
  const type = def.type ?? '';
  if (type === 'object') return strictObject(schema, def);
  const innerKey = INNER_KEY[type];
  if (innerKey !== undefined) return withChildren(schema, def, { [innerKey]: def[innerKey] });
  if (type === 'union') return withChildren(schema, def, { options: def.options });
  if (type === 'tuple') return withChildren(schema, def, { items: def.items, rest: def.rest });
  return schema;
}

/** The objects whose fields are being made strict (the walk's path), so a recursive one ends. */
const walking = new WeakSet<SchemaLike>();

function strictObject(schema: SchemaLike, def: Record<string, unknown>): SchemaLike {
  const catchall = (def.catchall as SchemaLike | undefined)?._zod?.def?.type;
  if (catchall !== undefined && catchall !== 'never') return schema;
  const shape = def.shape as Record<string, SchemaLike>;
  const strictShape: Record<string, SchemaLike> = {};
  let changed = false;
  // zod 4 writes a recursive object with a getter field that holds the object again: met again
  // while its fields are walked, it is left as written (walking it would not end).
  if (walking.has(schema)) return schema;
  walking.add(schema);
  try {
    for (const [key, field] of Object.entries(shape)) {
      strictShape[key] = strictDeep(field);
      if (strictShape[key] !== field) changed = true;
    }
  } finally {
    walking.delete(schema);
  }
  const object = changed ? cloneWith(schema, def, { shape: strictShape }) : schema;
  return catchall === undefined && typeof object.strict === 'function' ? object.strict() : object;
}

/**
 * The schema with its child schemas (a schema, an array of schemas, or undefined, by def key)
 * made strict: itself when none changed, else a clone (checks and refinements kept).
 */
function withChildren(
  schema: SchemaLike,
  def: Record<string, unknown>,
  children: Record<string, unknown>,
): SchemaLike {
  const replaced: Record<string, unknown> = {};
  let changed = false;
  for (const [key, child] of Object.entries(children)) {
    if (child === undefined || child === null) continue;
    const strict = Array.isArray(child)
      ? child.map((one: SchemaLike) => strictDeep(one))
      : strictDeep(child as SchemaLike);
    const same = Array.isArray(child)
      ? child.every((one, i) => one === (strict as SchemaLike[])[i])
      : strict === child;
    if (!same) changed = true;
    replaced[key] = strict;
  }
  return changed ? cloneWith(schema, def, replaced) : schema;
}

/** A clone with some def keys replaced; the other keys copied as they are, getters included. */
function cloneWith(
  schema: SchemaLike,
  def: Record<string, unknown>,
  replaced: Record<string, unknown>,
): SchemaLike {
  const next = Object.create(Object.getPrototypeOf(def) as object | null) as Record<string, unknown>;
  for (const key of Reflect.ownKeys(def)) {
    if (typeof key === 'string' && key in replaced) continue;
    Object.defineProperty(next, key, Object.getOwnPropertyDescriptor(def, key) as PropertyDescriptor);
  }
  Object.assign(next, replaced);
  return (schema.clone as (def: Record<string, unknown>) => SchemaLike)(next);
}
