import { D } from '../../../core/model/index.ts';

/**
 * Writes a value as JSON that depends only on the value, so the same result gives the same
 * bytes: object keys sorted, Decimals as exact plain strings, `undefined` fields left out.
 * The top levels are indented for reading; records inside arrays are one line each, so a
 * 100k-sample equity curve stays compact and diffs line by line.
 * @param value - plain data: objects, arrays, strings, finite numbers, booleans, null, Decimals
 * @returns the JSON text, ending with a newline
 * @throws TypeError naming the path of a NaN, an infinite number or a value JSON cannot hold
 */
export function stableJson(value: unknown): string {
  return `${layout(normalize(value, '$'), 0)}\n`;
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
  if (typeof value === 'object') {
    const out: { [key: string]: Plain } = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = normalize(v, `${path}.${key}`);
    }
    return out;
  }
  throw new TypeError(`stableJson: ${path} is a ${typeof value}, which JSON cannot hold`);
}

const PRETTY_DEPTH = 2;

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
