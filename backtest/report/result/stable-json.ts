import { D } from '../../../core/model/index.ts';
import { hasLines, type RecordLog } from '../log/record-log.ts';
import { isRecordLog } from './is-record-log.ts';
import { stableJsonLine } from './stable-json-line.ts';

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

type Plain = string | number | boolean | null | Plain[] | { [key: string]: Plain };

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
