import { MarketDataDecodeError } from './decode-error.ts';

/**
 * Field readers for untrusted market-data pushes. Each returns the value or throws a
 * {@link MarketDataDecodeError} naming the field; the dispatcher turns the throw into a returned
 * error. They build no closures and no strings unless a field is wrong, because they run once per
 * field of every market event.
 */

/** A push after its envelope was checked: an object `arg` and whatever `data` held. */
export interface UntrustedPush {
  readonly arg: Readonly<Record<string, unknown>>;
  readonly data?: unknown;
}

/**
 * Describes a wrong value for an error message, shortened so a huge payload cannot flood a log.
 * @param value - the value found
 * @returns its JSON text, at most 60 characters
 */
function describeValue(value: unknown): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * The error for a field that is wrong: what it must be, then the value found (described by
 * {@link describeValue}). Every reader and decoder words its errors this way.
 * @param channel - channel of the message ("?" when unknown)
 * @param sym - sym of the message ("?" when unknown)
 * @param field - path of the offending field, e.g. "data.side"
 * @param expected - what the field must be, e.g. "must be BUY or SELL"
 * @param value - the value found
 * @returns the error, for the caller to throw or return
 */
export function wrongField(
  channel: string,
  sym: string,
  field: string,
  expected: string,
  value: unknown,
): MarketDataDecodeError {
  return new MarketDataDecodeError(channel, sym, field, `${expected}, got ${describeValue(value)}`);
}

/**
 * Reads `arg.sym`.
 * @param push - the push
 * @param channel - its channel, for the error
 * @returns the sym
 * @throws MarketDataDecodeError when sym is missing or not a non-empty string
 */
export function readSym(push: UntrustedPush, channel: string): string {
  const sym = push.arg.sym;
  if (typeof sym === 'string' && sym.length !== 0) return sym;
  throw wrongField(channel, '?', 'arg.sym', 'must be a symbol string', sym);
}

/**
 * Reads `data` as an object.
 * @param push - the push
 * @param channel - its channel, for the error
 * @param sym - its sym, for the error
 * @returns the data object
 * @throws MarketDataDecodeError when data is missing, an array or not an object
 */
export function readData(
  push: UntrustedPush,
  channel: string,
  sym: string,
): Readonly<Record<string, unknown>> {
  const data = push.data;
  if (typeof data === 'object' && data !== null && !Array.isArray(data)) {
    return data as Readonly<Record<string, unknown>>;
  }
  throw wrongField(channel, sym, 'data', 'must be an object', data);
}

/**
 * Whether a text is a plain decimal: an optional `-`, digits, and optionally `.` and digits. A
 * charCode scan (no regex, no allocation), because it runs once per number of every market event;
 * it refuses what `+text` would also read: `0x10`, `0b1011`, `1e3`, ` 95000 `, `Infinity`, `.5`.
 * @param text - the field's text
 * @returns true for a plain decimal
 */
function isPlainDecimal(text: string): boolean {
  const n = text.length;
  let i = n !== 0 && text.charCodeAt(0) === 45 ? 1 : 0;
  const intStart = i;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) break;
    i++;
  }
  if (i === intStart) return false;
  if (i === n) return true;
  if (text.charCodeAt(i) !== 46) return false;
  const fracStart = ++i;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
    i++;
  }
  return i !== fracStart;
}

/**
 * Parses a decimal string into a number: a plain decimal ({@link isPlainDecimal}) read with
 * `+text` (the hot path: no Decimal, no regex); money takes the exact path (`parseDecimal`) from
 * the original text.
 * @param value - the raw field value
 * @param field - path of the field, for the error
 * @param channel - channel, for the error
 * @param sym - sym, for the error
 * @returns the number
 * @throws MarketDataDecodeError when the value is not a plain decimal string holding a finite number
 */
export function decimalText(value: unknown, field: string, channel: string, sym: string): number {
  if (typeof value === 'string' && isPlainDecimal(value)) {
    const n = +value;
    // n - n is 0 for every finite number and NaN for ±Infinity (hundreds of digits).
    if (n - n === 0) return n;
  }
  throw wrongField(channel, sym, field, 'must be a decimal string like "123.45"', value);
}

/**
 * Parses a size (a quantity, a volume, open interest): a decimal string that is not negative.
 * @param value - the raw field value
 * @param field - path of the field, for the error
 * @param channel - channel, for the error
 * @param sym - sym, for the error
 * @returns the number, 0 or more
 * @throws MarketDataDecodeError when the value is not a decimal string, or is negative
 */
export function sizeText(value: unknown, field: string, channel: string, sym: string): number {
  const n = decimalText(value, field, channel, sym);
  if (n >= 0) return n;
  throw wrongField(channel, sym, field, 'must be a size: a decimal string of 0 or more', value);
}

/**
 * Reads a decimal-string field of `data` as a number.
 * @param data - the data object
 * @param key - field name inside data
 * @param channel - channel, for the error
 * @param sym - sym, for the error
 * @returns the number
 * @throws MarketDataDecodeError naming `data.<key>` when it is not a decimal string
 */
export function readDecimal(
  data: Readonly<Record<string, unknown>>,
  key: string,
  channel: string,
  sym: string,
): number {
  return decimalText(data[key], `data.${key}`, channel, sym);
}

/**
 * Reads a size field of `data` (a quantity, a volume) as a number, 0 or more.
 * @param data - the data object
 * @param key - field name inside data
 * @param channel - channel, for the error
 * @param sym - sym, for the error
 * @returns the number
 * @throws MarketDataDecodeError naming `data.<key>` when it is not a decimal string of 0 or more
 */
export function readSize(
  data: Readonly<Record<string, unknown>>,
  key: string,
  channel: string,
  sym: string,
): number {
  return sizeText(data[key], `data.${key}`, channel, sym);
}

/**
 * Reads an epoch-milliseconds field of `data` (a JSON number, Keel's choice).
 * @param data - the data object
 * @param key - field name inside data
 * @param channel - channel, for the error
 * @param sym - sym, for the error
 * @returns the time in epoch ms
 * @throws MarketDataDecodeError naming `data.<key>` when it is not a finite non-negative number
 */
export function readEpochMs(
  data: Readonly<Record<string, unknown>>,
  key: string,
  channel: string,
  sym: string,
): number {
  const value = data[key];
  if (typeof value === 'number' && value >= 0 && value - value === 0) return value;
  throw wrongField(channel, sym, `data.${key}`, 'must be epoch milliseconds (a number)', value);
}
