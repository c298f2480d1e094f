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
  const pieces = takePieces();
  try {
    writeValue(pieces, value, path, undefined);
    return pieces.text();
  } finally {
    releasePieces(pieces);
  }
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
  const pieces = takePieces();
  try {
    writeObject(pieces, value, '$', withKey(shapeOf(value), key), field);
    return pieces.text();
  } finally {
    releasePieces(pieces);
  }
}

/**
 * The pieces of one line, in order, joined once at the end. A line was built from a string per
 * field (its name and its text) and the array of those: some three kilobytes of garbage for a
 * line of 450 characters. The pieces go into one array reused from line to line instead, each
 * name, text and punctuation as it is, so the line is the only new string beside the values' own
 * texts (numbers, Decimals).
 */
class LinePieces {
  private readonly pieces: string[] = [];
  private count = 0;

  /** Appends a piece. */
  add(piece: string): void {
    this.pieces[this.count++] = piece;
  }

  /** The line: the pieces added since the last one, joined. */
  text(): string {
    const pieces = this.pieces;
    const count = this.count;
    // The slots past this line's pieces hold an earlier, longer line's: emptied, or dropped when
    // far more than this line needs (one huge value would otherwise be joined again every line).
    if (pieces.length > 2 * count + 64) pieces.length = count;
    else for (let i = count; i < pieces.length; i++) pieces[i] = '';
    return pieces.join('');
  }

  /** Forgets the pieces added, for the next line. */
  reset(): void {
    this.count = 0;
  }
}

/** The pieces every line is written with, unless a line is being written already (then a new one). */
const SHARED_PIECES = new LinePieces();
let sharedInUse = false;

function takePieces(): LinePieces {
  if (sharedInUse) return new LinePieces();
  sharedInUse = true;
  return SHARED_PIECES;
}

function releasePieces(pieces: LinePieces): void {
  pieces.reset();
  if (pieces === SHARED_PIECES) sharedInUse = false;
}

/**
 * {@link stableJsonLine} written directly rather than as JSON.stringify(normalize(value)): a run
 * encodes every order, fill and trade this way, and the intermediate copy of each record was
 * most of the cost. The path of a value (for errors) is `parent` + `key`, joined only when needed.
 */
function writeValue(
  pieces: LinePieces,
  value: unknown,
  parent: string,
  key: string | number | undefined,
): void {
  if (value === null) {
    pieces.add('null');
    return;
  }
  switch (typeof value) {
    case 'string':
      writeQuoted(pieces, value);
      return;
    case 'boolean':
      pieces.add(value ? 'true' : 'false');
      return;
    case 'number':
      if (!Number.isFinite(value))
        throw new TypeError(`stableJson: ${pathOf(parent, key)} is ${value}, which JSON cannot hold`);
      pieces.add(Object.is(value, -0) ? '0' : String(value));
      return;
    case 'object': {
      if (D.isDecimal(value)) {
        writeDecimal(pieces, value as InstanceType<typeof D>);
        return;
      }
      const path = pathOf(parent, key);
      if (Array.isArray(value) || isRecordLog(value)) {
        let i = 0;
        pieces.add('[');
        for (const item of value as Iterable<unknown>) {
          if (i > 0) pieces.add(',');
          writeValue(pieces, item, path, i);
          i++;
        }
        pieces.add(']');
        return;
      }
      writeObject(pieces, value, path);
      return;
    }
    default:
      throw new TypeError(`stableJson: ${pathOf(parent, key)} is a ${typeof value}, which JSON cannot hold`);
  }
}

/**
 * An object's fields, the scalars written in place: a run writes every order, fill and trade
 * here, and one call per field (with its type switch and path) was most of the cost of a record.
 */
function writeObject(
  pieces: LinePieces,
  value: object,
  path: string,
  shape: KnownShape = shapeOf(value),
  extra?: unknown,
): void {
  const { sorted, extraAt } = shape;
  pieces.add('{');
  let lead = shape.prefixes;
  let openLead = shape.openPrefixes;
  for (let i = 0; i < sorted.length; i++) {
    const k = sorted[i] as string;
    const v = i === extraAt ? extra : (value as Record<string, unknown>)[k];
    if (v === undefined) continue;
    if (typeof v === 'string' && isPlain(v)) {
      pieces.add(openLead[i] as string);
      pieces.add(v);
      pieces.add('"');
    } else if (typeof v === 'number' && Number.isFinite(v)) {
      pieces.add(lead[i] as string);
      pieces.add(String(v));
    } else if (typeof v === 'object' && v !== null && D.isDecimal(v)) {
      pieces.add(openLead[i] as string);
      pieces.add((v as InstanceType<typeof D>).toFixed());
      pieces.add('"');
    } else {
      pieces.add(lead[i] as string);
      writeValue(pieces, v, path, k);
    }
    lead = shape.commaPrefixes;
    openLead = shape.commaOpenPrefixes;
  }
  pieces.add('}');
}

function writeDecimal(pieces: LinePieces, value: InstanceType<typeof D>): void {
  pieces.add('"');
  pieces.add(value.toFixed());
  pieces.add('"');
}

function pathOf(parent: string, key: string | number | undefined): string {
  return key === undefined ? parent : typeof key === 'number' ? `${parent}[${key}]` : `${parent}.${key}`;
}

/**
 * A string as JSON: most are ids and enum words, quoted as they are without the serializer. Any
 * character JSON.stringify escapes (quote, backslash, controls, surrogates, which it escapes when
 * lone) sends the string to it.
 */
function writeQuoted(pieces: LinePieces, text: string): void {
  if (!isPlain(text)) {
    pieces.add(JSON.stringify(text));
    return;
  }
  pieces.add('"');
  pieces.add(text);
  pieces.add('"');
}

/** Whether a string is its own JSON text between quotes: none of the characters JSON.stringify escapes. */
function isPlain(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  return true;
}
