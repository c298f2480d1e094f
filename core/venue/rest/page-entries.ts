import { z } from 'zod';
import { DecodeError } from '../errors.ts';
import { type PageWire, pageOf } from '../wire/common.ts';
import { decodeWire } from '../wire/decode.ts';

/** A page whose entries are not decoded yet. */
const UNDECODED_PAGE = pageOf(z.unknown());

/** How many entries each page decoded entry by entry left out (kept off the page, which the venue shapes). */
const leftOut = new WeakMap<object, number>();

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
  const problems: string[] = [];
  undecoded.list.forEach((item, index) => {
    try {
      list.push(decodeWire(entry, item, where, ['data', 'list', index]));
    } catch (error) {
      if (!(error instanceof DecodeError)) throw error;
      problems.push(error.message);
    }
  });
  const page = { ...undecoded, list };
  if (problems.length > 0) leftOut.set(page, problems.length);
  return { page, problems };
}

/**
 * @param page - a decoded page
 * @returns how many of its entries {@link decodePageEntries} left out (0 for any other page)
 */
export function entriesLeftOut(page: object): number {
  return leftOut.get(page) ?? 0;
}
