import { D } from '../../../core/model/index.ts';
import { isRecordLog } from './is-record-log.ts';
import { type KnownShape, shapeOf, withKey } from './json-key-shapes.ts';

/**
 * One value as compact stable JSON on one line: how a record sits inside a result file's array.
 * @param value - plain data: objects, arrays, record logs, strings, finite numbers, booleans,
 *   null, Decimals
 * @param path - where the value is, for error messages
 * @returns the JSON text without a line break
 * @throws TypeError naming the path of a NaN, an infinite number or a value JSON cannot hold
 */
export function stableJsonLine(value: unknown, path = '$'): string {
  return lineOf(value, path, undefined);
}

/**
 * {@link stableJsonLine} of the object with one field set, without copying it: the line of
 * `{ ...value, [key]: field }`. A run writes every finished order with its owner this way, where
 * a copy of each order, made only to be written, added about a sixth to writing it.
 * @param value - a plain object, as {@link stableJsonLine} takes
 * @param key - the field set (added, or replacing the object's own)
 * @param field - its value; undefined leaves the field out, as for any field
 * @returns the JSON text without a line break
 * @throws TypeError naming the path of a NaN, an infinite number or a value JSON cannot hold
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
