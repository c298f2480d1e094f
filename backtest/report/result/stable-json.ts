import { D } from '../../../core/model/index.ts';
import { hasLines, type RecordLog } from '../log/record-log.ts';

/**
 * Writes a value as JSON that depends only on the value, so the same result gives the same
 * bytes: object keys sorted, Decimals as exact plain strings, `undefined` fields left out.
 * The top levels are indented for reading; records inside arrays are one line each, so a
 * 100k-sample equity curve stays compact and diffs line by line. Record logs count as arrays.
 * Builds the whole text: {@link stableJsonChunks} gives it piece by piece for writing a file.
 * @param value - plain data: objects, arrays, record logs, strings, finite numbers, booleans,
 *   null, Decimals
 * @returns the JSON text, ending with a newline
 * @throws TypeError naming the path of a NaN, an infinite number or a value JSON cannot hold
 */
export function stableJson(value: unknown): string {
  let text = '';
  for (const chunk of stableJsonChunks(value)) text += chunk;
  return text;
}

/**
 * The text of {@link stableJson} in pieces, so a large result streams to disk: a record log
 * (a non-array iterable, e.g. a result's fills) is read one record at a time, and when it keeps
 * its records as encoded lines (the same one-line form as here) the lines are copied as they are.
 * @param value - see {@link stableJson}
 * @returns pieces whose concatenation is `stableJson(value)`
 * @throws TypeError as {@link stableJson}
 */
export function* stableJsonChunks(value: unknown): Generator<string> {
  yield* chunksOf(value, '$', 0);
  yield '\n';
}

/**
 * One value as compact stable JSON on one line: how a record sits inside a result file's array.
 * @param value - plain data, as {@link stableJson}
 * @param path - where the value is, for error messages
 * @returns the JSON text without a line break
 * @throws TypeError as {@link stableJson}
 */
export function stableJsonLine(value: unknown, path = '$'): string {
  return lineOf(value, path, undefined);
}

/**
 * {@link stableJsonLine} of the object with one field set, without copying it: the line of
 * `{ ...value, [key]: field }`. A run writes every finished order with its owner this way, where
 * a copy of each order, made only to be written, added about a sixth to writing it.
 * @param value - a plain object, as {@link stableJson} takes
 * @param key - the field set (added, or replacing the object's own)
 * @param field - its value; undefined leaves the field out, as for any field
 * @returns the JSON text without a line break
 * @throws TypeError as {@link stableJson}
 */
export function stableJsonLineWith(value: object, key: string, field: unknown): string {
  return objectLine(value, '$', withKey(shapeOf(value), key), field);
}

/**
 * {@link stableJsonLine} written directly rather than as JSON.stringify(normalize(value)): a run
 * encodes every order, fill and trade this way, and the intermediate copy of each record was
 * most of the cost. The path of a value (for errors) is `parent` + `key`, joined only when needed.
 */
function lineOf(value: unknown, parent: string, key: string | number | undefined): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return quoted(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value))
        throw new TypeError(`stableJson: ${pathOf(parent, key)} is ${value}, which JSON cannot hold`);
      return Object.is(value, -0) ? '0' : String(value);
    case 'object': {
      if (D.isDecimal(value)) return `"${(value as InstanceType<typeof D>).toFixed()}"`;
      const path = pathOf(parent, key);
      if (Array.isArray(value) || isRecordLog(value)) {
        let i = 0;
        let out = '[';
        for (const item of value as Iterable<unknown>) {
          out += `${i === 0 ? '' : ','}${lineOf(item, path, i)}`;
          i++;
        }
        return `${out}]`;
      }
      return objectLine(value, path);
    }
    default:
      throw new TypeError(`stableJson: ${pathOf(parent, key)} is a ${typeof value}, which JSON cannot hold`);
  }
}

/**
 * An object's fields, the scalars written in place: a run writes every order, fill and trade
 * here, and one call per field (with its type switch and path) was most of the cost of a record.
 * Fields are joined once rather than concatenated one by one: the line then is one flat string,
 * where a string grown by `+=` stays a tree of some eighty pieces while it waits to be written.
 */
function objectLine(
  value: object,
  path: string,
  { sorted, prefixes, extraAt }: KnownShape = shapeOf(value),
  extra?: unknown,
): string {
  const fields: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const k = sorted[i] as string;
    const v = i === extraAt ? extra : (value as Record<string, unknown>)[k];
    if (v === undefined) continue;
    let text: string;
    if (typeof v === 'string') text = quoted(v);
    else if (typeof v === 'number' && Number.isFinite(v)) text = String(v);
    else if (typeof v === 'object' && v !== null && D.isDecimal(v))
      text = `"${(v as InstanceType<typeof D>).toFixed()}"`;
    else text = lineOf(v, path, k);
    fields.push(`${prefixes[i]}${text}`);
  }
  return `{${fields.join(',')}}`;
}

function pathOf(parent: string, key: string | number | undefined): string {
  return key === undefined ? parent : typeof key === 'number' ? `${parent}[${key}]` : `${parent}.${key}`;
}

/**
 * A string as JSON: most are ids and enum words, quoted as they are without the serializer. Any
 * character JSON.stringify escapes (quote, backslash, controls, surrogates, which it escapes when
 * lone) sends the string to it.
 */
function quoted(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(text);
  }
  return `"${text}"`;
}

/**
 * An object shape: its own keys in their order, the same keys sorted, and each sorted key as JSON
 * with its colon; for the shape with a field set from outside (see {@link stableJsonLineWith}),
 * where that field is among the sorted keys (-1 for a plain shape).
 */
interface KnownShape {
  readonly own: readonly string[];
  readonly sorted: readonly string[];
  readonly prefixes: readonly string[];
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
 * The object's keys sorted as `normalize` leaves them: sorted, except that an object lists
 * array-index keys ("0", "12") first, in numeric order, whatever order they were added in. A
 * shape seen before is found by comparing its own keys one by one, which is cheap (property
 * names are interned) and builds no string.
 */
function shapeOf(value: object): KnownShape {
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

function shapeFrom(own: readonly string[], extra: string | undefined): KnownShape {
  const sorted = sortKeys(own);
  return {
    own,
    sorted,
    prefixes: sorted.map((k) => `${JSON.stringify(k)}:`),
    extraAt: extra === undefined ? -1 : sorted.indexOf(extra),
    withKeys: new Map(),
  };
}

/** The shape of an object of `shape` with `key` set: its keys and `key`, that field read from outside. */
function withKey(shape: KnownShape, key: string): KnownShape {
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

type Plain = string | number | boolean | null | Plain[] | { [key: string]: Plain };

function isRecordLog(value: unknown): value is RecordLog<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function'
  );
}

function normalize(value: unknown, path: string): Plain {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value))
      throw new TypeError(`stableJson: ${path} is ${value}, which JSON cannot hold`);
    return Object.is(value, -0) ? 0 : value;
  }
  if (D.isDecimal(value)) return (value as InstanceType<typeof D>).toFixed();
  if (Array.isArray(value)) return value.map((v, i) => normalize(v, `${path}[${i}]`));
  if (isRecordLog(value)) return Array.from(value, (v, i) => normalize(v, `${path}[${i}]`));
  if (typeof value === 'object') {
    // No prototype: a "__proto__" key (JSON.parse makes it an own property) stays a plain key.
    const out: { [key: string]: Plain } = Object.create(null);
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = normalize(v, `${path}.${key}`);
    }
    return out;
  }
  throw new TypeError(`stableJson: ${path} is a ${typeof value}, which JSON cannot hold`);
}

const PRETTY_DEPTH = 2;

function* chunksOf(value: unknown, path: string, depth: number): Generator<string> {
  if (depth < PRETTY_DEPTH && isRecordLog(value)) {
    yield* logChunks(value, path, depth);
    return;
  }
  if (
    depth < PRETTY_DEPTH &&
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !D.isDecimal(value)
  ) {
    const keys = Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined);
    if (keys.length === 0) {
      yield '{}';
      return;
    }
    const pad = '  '.repeat(depth + 1);
    yield '{\n';
    for (const [i, key] of keys.entries()) {
      yield `${i === 0 ? '' : ',\n'}${pad}${JSON.stringify(key)}: `;
      yield* chunksOf((value as Record<string, unknown>)[key], `${path}.${key}`, depth + 1);
    }
    yield `\n${'  '.repeat(depth)}}`;
    return;
  }
  yield layout(normalize(value, path), depth);
}

/** A record log as a pretty array, one record per line, without holding the records. */
function* logChunks(log: RecordLog<unknown>, path: string, depth: number): Generator<string> {
  const pad = '  '.repeat(depth + 1);
  let i = 0;
  const lines = hasLines(log)
    ? log.lines()
    : (function* encode() {
        let at = 0;
        for (const record of log) yield stableJsonLine(record, `${path}[${at++}]`);
      })();
  for (const line of lines) {
    yield `${i === 0 ? '[\n' : ',\n'}${pad}${line}`;
    i++;
  }
  yield i === 0 ? '[]' : `\n${'  '.repeat(depth)}]`;
}

function layout(value: Plain, depth: number): string {
  const pad = '  '.repeat(depth + 1);
  const close = '  '.repeat(depth);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (depth >= PRETTY_DEPTH || value.every((v) => v === null || typeof v !== 'object')) {
      return JSON.stringify(value);
    }
    return `[\n${value.map((v) => pad + JSON.stringify(v)).join(',\n')}\n${close}]`;
  }
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 0) return '{}';
    if (depth >= PRETTY_DEPTH) return JSON.stringify(value);
    const lines = keys.map((k) => `${pad}${JSON.stringify(k)}: ${layout(value[k] as Plain, depth + 1)}`);
    return `{\n${lines.join(',\n')}\n${close}}`;
  }
  return JSON.stringify(value);
}
