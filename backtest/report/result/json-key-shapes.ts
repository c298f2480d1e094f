/**
 * An object shape: its own keys in their order, the same keys sorted, and each sorted key as JSON
 * with its colon (also after a comma and / or before an opening quote, so a line is written in
 * fewer pieces); for the shape with a field set from outside (see `stableJsonLineWith`),
 * where that field is among the sorted keys (-1 for a plain shape).
 */
export interface KnownShape {
  readonly own: readonly string[];
  readonly sorted: readonly string[];
  readonly prefixes: readonly string[];
  /** Each prefix after a comma (`,"key":`): a field other than the first. */
  readonly commaPrefixes: readonly string[];
  /** Each prefix with the value's opening quote (`"key":"`): a string or Decimal field. */
  readonly openPrefixes: readonly string[];
  /** Each prefix after a comma, with the opening quote (`,"key":"`). */
  readonly commaOpenPrefixes: readonly string[];
  readonly extraAt: number;
  /** The shapes with one more field set from outside, by that field's name. */
  readonly withKeys: Map<string, KnownShape>;
}

/** Shapes seen, by key count: records repeat the same few shapes millions of times. */
const SHAPES = new Map<number, KnownShape[]>();
/** Shapes remembered per key count at most (Keel's choice): more are sorted each time. */
const SHAPES_PER_COUNT = 16;

const INDEX_KEY = /^(0|[1-9]\d{0,8})$/;

/**
 * The object's keys sorted as `normalize` (stable-json.ts) leaves them: sorted, except that an object lists
 * array-index keys ("0", "12") first, in numeric order, whatever order they were added in. A
 * shape seen before is found by comparing its own keys one by one, which is cheap (property
 * names are interned) and builds no string.
 * @param value - a plain object
 * @returns its shape
 */
export function shapeOf(value: object): KnownShape {
  const seen = seenShapeOf(value);
  if (seen !== undefined) return seen;
  const own = Object.keys(value);
  let known = SHAPES.get(own.length);
  if (known === undefined) {
    known = [];
    SHAPES.set(own.length, known);
  }
  for (const shape of known) if (sameKeys(shape.own, own)) return shape;
  const shape = shapeFrom(own, undefined);
  if (known.length < SHAPES_PER_COUNT) known.push(shape);
  return shape;
}

/**
 * A shape seen before, found without listing the keys: a plain object's for-in keys are its own,
 * in the order `Object.keys` gives, and walking them makes no array (a run writes every order,
 * fill and trade through here). Other objects (whose prototypes might add keys) are left to
 * `Object.keys`.
 */
function seenShapeOf(value: object): KnownShape | undefined {
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return undefined;
  let count = 0;
  for (const _ in value) count++;
  const known = SHAPES.get(count);
  if (known === undefined) return undefined;
  for (const shape of known) if (sameKeysIn(shape.own, value)) return shape;
  return undefined;
}

function sameKeysIn(own: readonly string[], value: object): boolean {
  let i = 0;
  for (const k in value) if (own[i++] !== k) return false;
  return true;
}

function shapeFrom(own: readonly string[], extra: string | undefined): KnownShape {
  const sorted = sortKeys(own);
  return {
    own,
    sorted,
    prefixes: sorted.map((k) => `${JSON.stringify(k)}:`),
    commaPrefixes: sorted.map((k) => `,${JSON.stringify(k)}:`),
    openPrefixes: sorted.map((k) => `${JSON.stringify(k)}:"`),
    commaOpenPrefixes: sorted.map((k) => `,${JSON.stringify(k)}:"`),
    extraAt: extra === undefined ? -1 : sorted.indexOf(extra),
    withKeys: new Map(),
  };
}

/**
 * The shape of an object of `shape` with `key` set: its keys and `key`, that field read from outside.
 * @param shape - the object's own shape
 * @param key - the field set from outside
 * @returns the derived shape, made once per shape and key
 */
export function withKey(shape: KnownShape, key: string): KnownShape {
  let derived = shape.withKeys.get(key);
  if (derived === undefined) {
    derived = shapeFrom(shape.own.includes(key) ? shape.own : [...shape.own, key], key);
    shape.withKeys.set(key, derived);
  }
  return derived;
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sortKeys(own: readonly string[]): string[] {
  const keys = [...own].sort();
  if (!keys.some((k) => INDEX_KEY.test(k))) return keys;
  const indices = keys.filter((k) => INDEX_KEY.test(k)).sort((a, b) => Number(a) - Number(b));
  return [...indices, ...keys.filter((k) => !INDEX_KEY.test(k))];
}
