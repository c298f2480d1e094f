import { z } from 'zod';
import { DecodeError } from '../errors.ts';
import { type PageWire, pageOf } from '../wire/common.ts';
import { decodeWire } from '../wire/decode.ts';

/** A page whose entries are not decoded yet. */
const UNDECODED_PAGE = pageOf(z.unknown());

/** An entry of a page that did not decode. */
export interface LeftOutEntry {
  /** Why: one sentence naming the entry's index and the field. */
  readonly problem: string;
  /** The entry as the venue sent it. */
  readonly entry: unknown;
}

/** The entries each page decoded entry by entry left out (kept off the page, which the venue shapes). */
const leftOut = new WeakMap<object, readonly LeftOutEntry[]>();

/** A page reply decoded entry by entry. */
export interface PageEntries {
  /** The page, with the entries that decoded, in the venue's order. */
  readonly page: PageWire<unknown>;
  /** One sentence per entry that did not decode (it names the entry's index and the field). */
  readonly problems: readonly string[];
}

/**
 * Decodes a page reply entry by entry, so one bad entry costs only itself: the good entries of the
 * same page are kept, as a User Data batch's are.
 * @param data - the envelope's `data`
 * @param entry - the schema of one entry
 * @param where - what is being decoded, for the problems
 * @returns the page with the good entries, and why each other one was left out
 * @throws DecodeError when the page itself (page, pageSize, totalSize, list) misses or mistypes a field
 */
export function decodePageEntries(data: unknown, entry: z.ZodType, where: string): PageEntries {
  const undecoded = decodeWire(UNDECODED_PAGE, data, where, ['data']);
  const list: unknown[] = [];
  const bad: LeftOutEntry[] = [];
  undecoded.list.forEach((item, index) => {
    try {
      list.push(decodeWire(entry, item, where, ['data', 'list', index]));
    } catch (error) {
      if (!(error instanceof DecodeError)) throw error;
      bad.push({ problem: error.message, entry: item });
    }
  });
  const page = { ...undecoded, list };
  if (bad.length > 0) leftOut.set(page, bad);
  return { page, problems: bad.map((left) => left.problem) };
}

/**
 * @param page - a decoded page
 * @returns the entries {@link decodePageEntries} left out of it, in the venue's order (none for any
 *   other page)
 */
export function entriesLeftOut(page: object): readonly LeftOutEntry[] {
  return leftOut.get(page) ?? [];
}
